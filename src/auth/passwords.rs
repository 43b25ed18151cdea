use std::sync::Arc;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use tokio::sync::Semaphore;

/// A hash of a password nobody has, verified when an email is unknown so
/// that a login takes the same time whether or not the account exists.
/// Written out rather than computed at start-up, where one hash would add
/// 80 ms to every start; a test keeps its cost parameters equal to those
/// of the hashes we make.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$W8j2Vbn5/MJ6qnUEJocGTQ$Y+bgxL4luYE5Ps9LbMXd8Y60htVvHwXk88zWt5jS8C8";

/// Argon2id, on the calling thread: for the CLI and the control socket,
/// which are not on the async executor.
pub fn hash_blocking(password: &str) -> anyhow::Result<String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))
}

/// Argon2id hashing on the blocking pool, at most `limit` at once, so a
/// burst of logins cannot starve the server of threads or memory (each hash
/// takes 19 MiB).
#[derive(Clone)]
pub struct Passwords {
    permits: Arc<Semaphore>,
}

impl Passwords {
    pub fn new(limit: usize) -> Self {
        Self { permits: Arc::new(Semaphore::new(limit.max(1))) }
    }

    pub async fn hash(&self, password: String) -> anyhow::Result<String> {
        self.blocking(move || hash_blocking(&password)).await?
    }

    /// Whether `password` matches `hash`; with no hash (unknown account)
    /// the same work is done against a dummy and the answer is no.
    pub async fn verify(&self, password: String, hash: Option<String>) -> anyhow::Result<bool> {
        self.blocking(move || {
            let known = hash.is_some();
            let stored = hash.unwrap_or_else(|| DUMMY_HASH.to_owned());
            let parsed =
                PasswordHash::new(&stored).map_err(|e| anyhow::anyhow!("a stored password hash is malformed: {e}"))?;
            let matches = Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok();
            Ok(known && matches)
        })
        .await?
    }

    async fn blocking<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> anyhow::Result<T> {
        let _permit = self.permits.acquire().await?;
        Ok(tokio::task::spawn_blocking(work).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hashed_password_verifies_and_another_does_not() {
        let passwords = Passwords::new(2);
        let hash = passwords.hash("correct horse".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(passwords.verify("correct horse".into(), Some(hash.clone())).await.unwrap());
        assert!(!passwords.verify("wrong horse".into(), Some(hash)).await.unwrap());
    }

    #[test]
    fn the_dummy_hash_costs_as_much_to_verify_as_a_real_one() {
        let real = hash_blocking("correct horse").unwrap();
        let (real, dummy) = (PasswordHash::new(&real).unwrap(), PasswordHash::new(DUMMY_HASH).unwrap());
        assert_eq!(
            (real.algorithm, real.version, real.params.to_string()),
            (dummy.algorithm, dummy.version, dummy.params.to_string())
        );
    }

    #[tokio::test]
    async fn an_unknown_account_never_verifies_not_even_with_the_dummy_password() {
        let passwords = Passwords::new(1);
        assert!(!passwords.verify("no account has this password".into(), None).await.unwrap());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_hashes_run_at_once_than_the_limit() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let passwords = Passwords::new(2);
        let (running, peak) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let logins: Vec<_> = (0..8)
            .map(|_| {
                let (passwords, running, peak) = (passwords.clone(), running.clone(), peak.clone());
                tokio::spawn(async move {
                    passwords
                        .blocking(move || {
                            peak.fetch_max(running.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
                            std::thread::sleep(std::time::Duration::from_millis(30));
                            running.fetch_sub(1, Ordering::SeqCst);
                        })
                        .await
                })
            })
            .collect();
        for login in logins {
            login.await.unwrap().unwrap();
        }
        assert_eq!(peak.load(Ordering::SeqCst), 2, "eight logins at once, two hashes at a time");
    }
}
