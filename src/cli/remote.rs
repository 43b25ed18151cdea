//! Runs a command on the running server when there is one, otherwise on the
//! database directly.

use std::time::Duration;

use crate::control::{self, Request, Response};
use crate::datadir::DataDir;
use crate::store::Store;

pub enum Target {
    Server(Response),
    Direct(Store),
}

/// Sends `request` to the server of `data_dir`; with no server running,
/// opens the database for the caller to do the same work itself.
pub fn reach(data_dir: &DataDir, request: &Request) -> anyhow::Result<Target> {
    match control::call(&data_dir.control_socket(), request, Duration::from_secs(30)) {
        Ok(Response::Error { message }) => anyhow::bail!("the running server answered: {message}"),
        Ok(response) => Ok(Target::Server(response)),
        Err(_) => {
            if let Some(holder) = data_dir.running_instance() {
                anyhow::bail!("pid {} holds {} but its control socket does not answer", holder.pid, data_dir.root().display());
            }
            if !data_dir.database().exists() {
                anyhow::bail!("no database in {} yet: start `debrief serve` once", data_dir.root().display());
            }
            Ok(Target::Direct(Store::open(&data_dir.database())?))
        }
    }
}
