fn main() {
    std::process::exit(debrief::cli::run());
}
