//! `debrief serve`: takes the data directory, opens the store, binds HTTPS
//! (or plain HTTP), answers the control socket, and shuts down gracefully.

mod banner;
mod connection_caps;
mod control;
mod housekeeping;
mod shutdown;
mod tls_config;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use salvo::conn::{Acceptor, TcpListener};
use salvo::prelude::*;

use crate::auth::{Passwords, Throttle};
use crate::datadir::DataDir;
use crate::http::{AppState, AssetSource};
use crate::jobs::Jobs;
use crate::lan::Urls;
use crate::mail::Mailer;
use crate::settings::{Settings, origin_of};
use crate::store::Store;
use crate::tls::{LocalCa, ServerCert};

/// How long a job's stage may take to finish at shutdown before it is put
/// back in the queue for the next start.
const WORKER_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

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
    pub settings: Settings,
    pub models: crate::models::ModelsDir,
    /// Mounts the bare routes of the benchmark suite.
    pub bench_peers: bool,
}

pub async fn run(options: ServeOptions) -> anyhow::Result<()> {
    let open_files = connection_caps::raise_open_file_limit();
    let caps = connection_caps::ConnectionCaps::new(
        options.settings.max_connections.unwrap_or_else(|| connection_caps::default_max_connections(open_files)),
        options.settings.max_connections_per_address,
    );
    let data_dir = options.data_dir;
    data_dir.create()?;
    let mut lock = data_dir.lock()?;

    let db_path = data_dir.database();
    let store = tokio::task::spawn_blocking(move || {
        let store = Store::open(&db_path)?;
        // Bytes of uploads cut off by a crash and files of deleted records:
        // no record points at them, and nothing is under way yet.
        let orphans = store.sweep_orphans(std::time::Duration::ZERO)?;
        if orphans > 0 {
            tracing::info!(files = orphans, "removed the chunks of interrupted uploads");
        }
        Ok::<_, crate::store::StoreError>(store)
    })
    .await?
    .context("cannot open the database")?;

    let (cert, tls_label) = certificate(&options.tls, &data_dir).await?;
    let scheme = if cert.is_some() { "https" } else { "http" };
    let listener = TcpListener::new(options.bind);
    let bind_error = |e: salvo::Error| anyhow::anyhow!("cannot listen on {}: {e}", options.bind);
    let (bound, acceptor) = match cert {
        Some(ServerCert { chain_pem, key_pem, .. }) => {
            let config = tls_config::ServerOrdered::new(chain_pem, key_pem);
            let acceptor = listener.rustls(config).try_bind().await.map_err(bind_error)?;
            no_delay(acceptor.inner().inner())?;
            (local_addr(&acceptor)?, Bound::Tls(acceptor))
        }
        None => {
            let acceptor = listener.try_bind().await.map_err(bind_error)?;
            no_delay(acceptor.inner())?;
            (local_addr(&acceptor)?, Bound::Plain(acceptor))
        }
    };

    let urls = Urls::for_bound(bound, scheme);
    let settings = options.settings;
    let phone_url = settings.public_url.clone().or_else(|| urls.for_phones().map(str::to_owned));
    let public_url = phone_url.clone().unwrap_or_else(|| urls.local.clone());
    let mut origins: Vec<String> = urls.lan.iter().chain([&urls.local, &public_url]).map(|u| origin_of(u)).collect();
    origins.dedup();
    let sender = crate::mail::Sender::new(settings.mail_from.as_deref(), Some(&public_url));
    if let Some(warning) = &sender.warning {
        tracing::warn!("{warning}");
    }
    let speech_fix =
        crate::asr::plan(settings.asr, &options.models).is_err().then(|| models_command(&data_dir, &options.models));
    let engines = crate::jobs::EngineChoice {
        models: options.models,
        asr: settings.asr,
        asr_precision: settings.asr_precision,
        summariser: settings.summariser,
        longest_recording: settings.max_recording_duration,
    };
    let jobs_store = store.clone();
    let workers = usize::from(settings.workers);
    let (jobs, workers) = tokio::task::spawn_blocking(move || Jobs::start(jobs_store, engines, workers)).await??;
    let mailer = Mailer::new(settings.smtp_url.as_deref(), sender, crate::mail::outbox_dir(data_dir.root()))?;
    let state = AppState {
        store: store.clone(),
        passwords: Passwords::new(settings.hash_concurrency),
        mailer: mailer.clone(),
        login_throttle: Throttle::new(settings.login_max_failures, settings.login_window),
        admin_throttle: Throttle::new(settings.admin_login_max_failures, settings.login_window),
        send_throttle: Throttle::new(1, settings.send_window),
        hourly_send_throttle: Throttle::new(settings.follow_ups_per_hour, std::time::Duration::from_secs(3600)),
        reset_throttle: Throttle::new(crate::http::RESET_EMAILS_PER_LINK_LIFETIME, settings.reset_ttl),
        signup_throttle: Throttle::new(settings.signups_per_hour, std::time::Duration::from_secs(3600)),
        secure_cookies: public_url.starts_with("https://"),
        public_url,
        phone_url,
        allowed_origins: Arc::new(origins),
        ca_cert: matches!(options.tls, TlsMode::LocalCa).then(|| LocalCa::new(data_dir.tls_dir()).ca_cert_path()),
        data_dir: data_dir.root().to_owned(),
        scanner: crate::ocr::Scanner::start(data_dir.ocr_data()).context("cannot start the card-scanning thread")?,
        client_lists: Arc::default(),
        open_streams: Arc::default(),
        jobs: jobs.clone(),
        settings: Arc::new(settings),
    };
    let context = crate::control::Context { public_url: state.public_url.clone(), reset_ttl: state.settings.reset_ttl };
    let control = control::ControlSource::new(
        store.clone(),
        jobs.clone(),
        &urls,
        tls_label.clone(),
        mailer.sender().clone(),
        context,
    );
    let housekeeping = housekeeping::start(state.clone(), crate::mail::outbox_dir(data_dir.root()));
    let upkeep = crate::upkeep::Upkeep::start(store.clone(), data_dir.root().to_owned())
        .context("cannot start the storage upkeep thread")?;
    let service = crate::http::service(state, options.assets, options.bench_peers);
    // Only with a certificate of the admin's own: browsers remember HSTS, and
    // after the local CA is made anew it would turn the certificate warning
    // into an error nobody can click through.
    let service = match options.tls {
        TlsMode::Files { .. } => service.hoop(crate::http::strict_transport),
        TlsMode::Off | TlsMode::LocalCa => service,
    };
    let server = match acceptor {
        Bound::Tls(acceptor) => start(acceptor, caps, service, &jobs)?,
        Bound::Plain(acceptor) => start(acceptor, caps, service, &jobs)?,
    };

    lock.publish(&urls.local)?;
    let control_task = crate::control::serve(&data_dir.control_socket(), control)?;

    let has_admin = store.run(|s| s.has_admin()).await?;
    banner::print(&urls, &tls_label, &mailer, &data_dir, has_admin, speech_fix.as_deref());
    let outcome = server.await;
    control_task.abort();
    housekeeping.abort();
    drop(upkeep);
    tokio::task::spawn_blocking(move || workers.stop(WORKER_GRACE)).await?;
    let _ = std::fs::remove_file(data_dir.control_socket());
    tracing::info!("stopped");
    drop(lock);
    outcome.context("the server task failed")
}

/// The command that installs what suits this machine into `models`.
fn models_command(data_dir: &DataDir, models: &crate::models::ModelsDir) -> String {
    let mut command = format!("debrief models install --recommended --data-dir {}", data_dir.root().display());
    if models.root() != crate::models::ModelsDir::default_for(data_dir).root() {
        command.push_str(&format!(" --models-dir {}", models.root().display()));
    }
    command
}

enum Bound<T, P> {
    Tls(T),
    Plain(P),
}

async fn certificate(tls: &TlsMode, data_dir: &DataDir) -> anyhow::Result<(Option<ServerCert>, String)> {
    Ok(match tls {
        TlsMode::Off => (None, "off (plain HTTP)".to_owned()),
        TlsMode::LocalCa => {
            let ca = LocalCa::new(data_dir.tls_dir());
            let names = crate::tls::usable_names(crate::lan::certificate_names());
            let cert = tokio::task::spawn_blocking(move || ca.server_cert(&names)).await??;
            let label =
                format!("local certificate authority, server certificate valid until {}", cert.not_after.date());
            (Some(cert), label)
        }
        TlsMode::Files { cert, key } => {
            let cert = crate::tls::load_files(cert, key)?;
            let label = format!("certificate from --tls-cert, valid until {}", cert.not_after.date());
            (Some(cert), label)
        }
    })
}

/// Turns Nagle's algorithm off for every connection (Linux hands the
/// listener's setting to each accepted socket). With it on, a file sent as
/// headers and then its body waited for the client's delayed ACK: 40 ms
/// for each photo on a kept-alive connection.
fn no_delay(listener: &tokio::net::TcpListener) -> anyhow::Result<()> {
    socket2::SockRef::from(listener).set_tcp_nodelay(true).context("cannot set TCP_NODELAY on the listener")
}

fn local_addr(acceptor: &impl Acceptor) -> anyhow::Result<SocketAddr> {
    acceptor
        .holdings()
        .first()
        .and_then(|h| h.local_addr.clone().into_std())
        .ok_or_else(|| anyhow::anyhow!("the listener reports no address"))
}

fn start<A: Acceptor + Send + 'static>(
    acceptor: A,
    caps: connection_caps::ConnectionCaps,
    service: Service,
    jobs: &Jobs,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let server = Server::new(acceptor).fuse_policy(caps);
    shutdown::on_signal(server.handle(), jobs.clone())?;
    Ok(tokio::spawn(server.serve(service)))
}
