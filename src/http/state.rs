use std::path::PathBuf;
use std::sync::Arc;

use salvo::Depot;

use super::error::AppError;
use crate::auth::{Passwords, Throttle};
use crate::mail::Mailer;
use crate::settings::Settings;
use crate::store::Store;

/// What every handler may need, injected into the depot once per request.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub passwords: Passwords,
    pub mailer: Mailer,
    pub settings: Arc<Settings>,
    /// Failed sign-ins per client address and per account.
    pub login_throttle: Throttle,
    /// Failed admin sign-ins, counted more strictly than users'.
    pub admin_throttle: Throttle,
    /// Follow-up emails per client, so a double tap sends one.
    pub send_throttle: Throttle,
    /// Follow-up emails per user and hour.
    pub hourly_send_throttle: Throttle,
    /// Password-reset emails per account, so nobody can flood an inbox.
    /// Sign-ups per address in an hour (`--signups-per-hour`).
    pub signup_throttle: Throttle,
    pub reset_throttle: Throttle,
    /// Where emailed links point (`--public-url`, or the LAN URL).
    pub public_url: String,
    /// The address phones open: `--public-url`, else the first LAN URL;
    /// `None` when the server listens on this machine only.
    pub phone_url: Option<String>,
    /// Origins allowed to change anything: the public URL and every URL
    /// printed at start-up.
    pub allowed_origins: Arc<Vec<String>>,
    /// Cookies carry `Secure` when the app is reached over HTTPS.
    pub secure_cookies: bool,
    /// The local authority's certificate, when the server uses one.
    pub ca_cert: Option<PathBuf>,
    /// Where the database lives, to watch its free space.
    pub data_dir: PathBuf,
    /// The transcription and summary jobs.
    pub jobs: crate::jobs::Jobs,
    /// Card scans, one at a time (each keeps a core busy).
    pub scanner: crate::ocr::Scanner,
    /// The client lists as last sent, until the next write.
    pub client_lists: Arc<super::ClientLists>,
    /// The job event streams open, by session.
    pub open_streams: Arc<super::job_events::OpenStreams>,
}

impl AppState {
    /// Refuses (507) an upload of about `bytes` that would leave the disk
    /// with less than `--min-free-disk`: a full disk would stop every write,
    /// sign-ins included.
    pub fn ensure_room(&self, bytes: u64) -> Result<(), AppError> {
        let free = crate::datadir::free_bytes(&self.data_dir).unwrap_or(u64::MAX);
        if free < bytes.saturating_add(self.settings.min_free_disk) {
            tracing::warn!(free, needed = bytes, "refused an upload: the disk is nearly full");
            return Err(AppError::insufficient_storage(super::error::DISK_FULL));
        }
        Ok(())
    }
}

/// The state, which the router's first hoop always injects.
pub fn state(depot: &Depot) -> Result<&AppState, AppError> {
    depot.get_typed::<AppState>().map_err(|_| AppError::internal("the app state is missing from the depot"))
}
