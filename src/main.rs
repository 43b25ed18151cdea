fn main() {
    debrief::threads::init();
    debrief::datadir::create_files_private();
    std::process::exit(debrief::cli::run());
}
