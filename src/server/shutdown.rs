use std::time::Duration;

use salvo::server::ServerHandle;
use tokio::signal::unix::{SignalKind, signal};

/// How long requests in flight may take to finish after SIGTERM or Ctrl-C.
const GRACE: Duration = Duration::from_secs(10);

/// Stops the server gracefully on SIGTERM or SIGINT. The handlers are
/// registered before this returns, so a signal sent right after the ready
/// line is never met by the default action.
pub(super) fn on_signal(handle: ServerHandle, jobs: crate::jobs::Jobs) -> std::io::Result<()> {
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    tokio::spawn(async move {
        tokio::select! {
            _ = terminate.recv() => {}
            _ = interrupt.recv() => {}
        }
        tracing::info!("shutting down: finishing requests in flight");
        jobs.close_streams();
        handle.stop_graceful(GRACE);
    });
    Ok(())
}
