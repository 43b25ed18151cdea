//! `debrief serve`: takes the data directory, opens the store, binds HTTPS
//! (or plain HTTP), answers the control socket, and shuts down gracefully.

mod banner;
mod control;
mod shutdown;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use salvo::conn::rustls::{Keycert, RustlsConfig};
use salvo::conn::{Acceptor, TcpListener};
use salvo::prelude::*;

use crate::datadir::DataDir;
use crate::http::{AppState, AssetSource};
use crate::lan::Urls;
use crate::store::Store;
use crate::tls::{LocalCa, ServerCert};

pub enum TlsMode {
    /// Plain HTTP, for a reverse proxy in front or for tests.
    Off,
    /// A certificate from the local authority in the data directory.
    LocalCa,
    /// A certificate the user brings.
    Files { cert: PathBuf, key: PathBuf },
}

pub struct ServeOptions {
    pub data_dir: DataDir,
    pub bind: SocketAddr,
    pub tls: TlsMode,
    pub assets: AssetSource,
}

pub async fn run(options: ServeOptions) -> anyhow::Result<()> {
    let started = Instant::now();
    let data_dir = options.data_dir;
    data_dir.create()?;
    let mut lock = data_dir.lock()?;

    let db_path = data_dir.database();
    let store = tokio::task::spawn_blocking(move || Store::open(&db_path))
        .await?
        .context("cannot open the database")?;

    let (cert, tls_label) = match &options.tls {
        TlsMode::Off => (None, "off (plain HTTP)".to_owned()),
        TlsMode::LocalCa => {
            let ca = LocalCa::new(data_dir.tls_dir());
            let names = crate::tls::usable_names(crate::lan::certificate_names());
            let cert = tokio::task::spawn_blocking(move || ca.server_cert(&names)).await??;
            let label = format!("local certificate authority, server certificate valid until {}", cert.not_after.date());
            (Some(cert), label)
        }
        TlsMode::Files { cert, key } => {
            let cert = crate::tls::load_files(cert, key)?;
            let label = format!("certificate from --tls-cert, valid until {}", cert.not_after.date());
            (Some(cert), label)
        }
    };
    let scheme = if cert.is_some() { "https" } else { "http" };

    let ca_cert = matches!(options.tls, TlsMode::LocalCa).then(|| LocalCa::new(data_dir.tls_dir()).ca_cert_path());
    let service = crate::http::service(AppState { store: store.clone(), ca_cert }, options.assets);
    let bind_error = |e: salvo::Error| anyhow::anyhow!("cannot listen on {}: {e}", options.bind);
    let listener = TcpListener::new(options.bind);
    let (bound, server) = match cert {
        Some(ServerCert { chain_pem, key_pem, .. }) => {
            let config = RustlsConfig::new(Keycert::new().cert(chain_pem).key(key_pem));
            let acceptor = listener.rustls(config).try_bind().await.map_err(bind_error)?;
            (local_addr(&acceptor)?, tokio::spawn(serve_with_shutdown(acceptor, service)))
        }
        None => {
            let acceptor = listener.try_bind().await.map_err(bind_error)?;
            (local_addr(&acceptor)?, tokio::spawn(serve_with_shutdown(acceptor, service)))
        }
    };

    let urls = Urls::for_bound(bound, scheme);
    lock.publish(&urls.local)?;
    let status = control::StatusSource::new(store, &urls, tls_label.clone());
    let control_task = crate::control::serve(&data_dir.control_socket(), status)?;

    banner::print(&urls, &tls_label, &data_dir, started.elapsed());
    let outcome = server.await;
    control_task.abort();
    let _ = std::fs::remove_file(data_dir.control_socket());
    tracing::info!("stopped");
    drop(lock);
    outcome.context("the server task failed")
}

fn local_addr(acceptor: &impl Acceptor) -> anyhow::Result<SocketAddr> {
    acceptor
        .holdings()
        .first()
        .and_then(|h| h.local_addr.clone().into_std())
        .ok_or_else(|| anyhow::anyhow!("the listener reports no address"))
}

async fn serve_with_shutdown<A: Acceptor + Send + 'static>(acceptor: A, service: Service) {
    let server = Server::new(acceptor);
    shutdown::on_signal(server.handle());
    server.serve(service).await;
}
