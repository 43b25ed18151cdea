use std::future::Future;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixListener;

use super::{Request, Response};

/// A request larger than this is not a CLI command.
const MAX_REQUEST: u64 = 1 << 20;

pub trait ControlHandler: Send + Sync + 'static {
    fn handle(&self, request: Request) -> impl Future<Output = Response> + Send;
}

/// Binds the socket (owner-only) and answers requests until the returned
/// task is aborted. A stale socket left by a killed server is replaced: the
/// caller holds the instance lock, so nobody else can be listening on it.
pub fn serve<H: ControlHandler>(path: &Path, handler: H) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let _ = std::fs::remove_file(path);
    let listener = UnixListener::bind(path)
        .map_err(|e| anyhow::anyhow!("cannot listen on the control socket {}: {e}", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    let handler = Arc::new(handler);
    Ok(tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let handler = handler.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut line = String::new();
                let mut reader = BufReader::new(read).take(MAX_REQUEST);
                if reader.read_line(&mut line).await.is_err() {
                    return;
                }
                let response = match serde_json::from_str::<Request>(&line) {
                    Ok(request) => handler.handle(request).await,
                    Err(e) => Response::Error { message: format!("malformed control request: {e}") },
                };
                let mut out = serde_json::to_vec(&response).unwrap_or_default();
                out.push(b'\n');
                let _ = write.write_all(&out).await;
            });
        }
    }))
}
