//! Periodic clean-up: expired sessions and reset links, stale throttle
//! keys, and outbox files past their retention.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::clock::now_ms;
use crate::http::AppState;

const EVERY: Duration = Duration::from_secs(600);

pub(super) fn start(state: AppState, outbox: PathBuf) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(EVERY);
        loop {
            tick.tick().await;
            state.login_throttle.sweep();
            state.send_throttle.sweep();
            state.hourly_send_throttle.sweep();
            state.admin_throttle.sweep();
            state.reset_throttle.sweep();
            state.signup_throttle.sweep();
            let retention = state.settings.outbox_retention;
            let outbox = outbox.clone();
            let swept = state.store.run(move |s| {
                let now = now_ms();
                s.sweep_reset_tokens(now)?;
                s.sweep_email_confirmations(now)?;
                s.sweep_invitations(now)?;
                s.sweep_admin_sessions(now)?;
                let sessions = s.sweep_sessions(now)?;
                Ok((sessions, expire_outbox(&outbox, retention)))
            });
            match swept.await {
                Ok((sessions, files)) => {
                    if sessions > 0 || files > 0 {
                        tracing::info!(sessions, outbox_files = files, "removed expired sessions and old outbox files");
                    }
                }
                Err(e) => tracing::error!("housekeeping: {e}"),
            }
        }
    })
}

/// Deletes outbox files older than `retention`; returns how many.
fn expire_outbox(dir: &Path, retention: Duration) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let cutoff = SystemTime::now() - retention;
    entries
        .filter_map(Result::ok)
        .filter(|e| e.metadata().and_then(|m| m.modified()).is_ok_and(|at| at < cutoff))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}
