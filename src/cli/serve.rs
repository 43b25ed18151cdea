use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

use crate::datadir::DataDir;
use crate::http::AssetSource;
use crate::models::ModelsDir;
use crate::server::{ServeOptions, TlsMode};
use crate::settings::Settings;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, env = "DEBRIEF_BIND", default_value = "0.0.0.0:8443", value_name = "ADDR:PORT")]
    bind: SocketAddr,

    /// Serve plain HTTP (behind a reverse proxy that terminates TLS, or in tests).
    #[arg(long, env = "DEBRIEF_HTTP", conflicts_with_all = ["tls_cert", "tls_key"])]
    http: bool,

    /// PEM certificate chain to serve instead of the local certificate authority's.
    #[arg(long, env = "DEBRIEF_TLS_CERT", requires = "tls_key", value_name = "FILE")]
    tls_cert: Option<PathBuf>,

    /// PEM private key for --tls-cert.
    #[arg(long, env = "DEBRIEF_TLS_KEY", requires = "tls_cert", value_name = "FILE")]
    tls_key: Option<PathBuf>,

    /// Serve the browser app from this folder (built by frontend/build.mjs)
    /// instead of the copy embedded in the binary, for frontend work.
    #[arg(long, env = "DEBRIEF_DEV_ASSETS", hide = true, value_name = "DIR")]
    dev_assets: Option<PathBuf>,

    /// Also serve bare copies of the busiest API routes under
    /// /api/bench-peers/, which the benchmark suite measures against.
    #[arg(long, hide = true)]
    bench_peers: bool,

    #[command(flatten)]
    settings: Settings,
}

pub fn run(data_dir: DataDir, models: ModelsDir, args: ServeArgs) -> anyhow::Result<i32> {
    let tls = match (args.http, args.tls_cert, args.tls_key) {
        (true, _, _) => TlsMode::Off,
        (false, Some(cert), Some(key)) => TlsMode::Files { cert, key },
        _ => TlsMode::LocalCa,
    };
    let assets = args.dev_assets.map_or(AssetSource::Embedded, AssetSource::Dir);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(crate::server::run(ServeOptions {
        data_dir,
        bind: args.bind,
        tls,
        assets,
        settings: args.settings,
        models,
        bench_peers: args.bench_peers,
    }))?;
    Ok(0)
}
