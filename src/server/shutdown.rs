use std::time::Duration;

use salvo::server::ServerHandle;

/// How long requests in flight may take to finish after SIGTERM or Ctrl-C.
const GRACE: Duration = Duration::from_secs(10);

pub(super) fn on_signal(handle: ServerHandle) {
    tokio::spawn(async move {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        let terminate = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut signal) => {
                    signal.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let terminate = std::future::pending::<()>();
        tokio::select! {
            _ = ctrl_c => {}
            _ = terminate => {}
        }
        tracing::info!("shutting down: finishing requests in flight");
        handle.stop_graceful(GRACE);
    });
}
