//! The TLS settings of the listener: salvo's, with the server's order of
//! cipher suites deciding instead of the client's.

use salvo::conn::IntoConfigStream;
use salvo::conn::rustls::{Keycert, RustlsConfig, ServerConfig};

/// A certificate and key, served with the server's cipher order: rustls
/// lists its suites strongest first (AES-256-GCM, then AES-128-GCM and
/// ChaCha20, all forward-secret AEAD), and a client's preference for a
/// weaker one no longer wins.
pub(super) struct ServerOrdered(RustlsConfig);

impl ServerOrdered {
    pub(super) fn new(chain_pem: String, key_pem: String) -> Self {
        Self(RustlsConfig::new(Keycert::new().cert(chain_pem).key(key_pem)))
    }
}

impl TryFrom<ServerOrdered> for ServerConfig {
    type Error = std::io::Error;

    fn try_from(ordered: ServerOrdered) -> std::io::Result<Self> {
        let mut config: ServerConfig = ordered.0.try_into()?;
        config.ignore_client_order = true;
        Ok(config)
    }
}

impl IntoConfigStream<ServerOrdered> for ServerOrdered {
    type Stream = futures_util::stream::Once<std::future::Ready<Self>>;

    fn into_stream(self) -> Self::Stream {
        futures_util::stream::once(std::future::ready(self))
    }
}
