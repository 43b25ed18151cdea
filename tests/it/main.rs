//! Integration tests: the real binary, on port 0, with a fresh data
//! directory each. One test binary, so the suite links once.

mod browser;
mod harness;
mod python;
mod smtp;
mod speech;

mod accounts;
mod admin;
mod audio;
mod bench_peers;
mod card_queue;
mod cards;
mod clients;
mod confirm_email;
mod crash;
mod first_run;
mod follow_up;
mod fuzz;
mod fuzz_images;
mod insights;
mod install;
mod instance;
mod jobs;
mod long_audio;
mod models;
mod next_steps;
mod probe;
mod probe_access;
mod reset;
mod serving;
mod sign_in;
mod signup;
mod slow_clients;
mod spam;
mod storage;
mod summarise;
mod timestamps;
mod tls;
mod transcript;
mod vosk;
mod whisper;
mod writers;
