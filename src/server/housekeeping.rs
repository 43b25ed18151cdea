//! Periodic clean-up: expired sessions and reset links, stale throttle keys.

use std::time::Duration;

use crate::clock::now_ms;
use crate::http::AppState;

const EVERY: Duration = Duration::from_secs(600);

pub(super) fn start(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(EVERY);
        loop {
            tick.tick().await;
            state.login_throttle.sweep();
            let swept = state.store.run(|s| {
                let now = now_ms();
                s.sweep_reset_tokens(now)?;
                s.sweep_sessions(now)
            });
            match swept.await {
                Ok(0) => {}
                Ok(n) => tracing::info!(sessions = n, "removed expired sessions"),
                Err(e) => tracing::error!("housekeeping: {e}"),
            }
        }
    })
}
