fn main() {
    debrief::threads::init();
    std::process::exit(debrief::cli::run());
}
