use clap::Parser;
use yasmin_rs::config::Config;

fn main() {
    let config = Config::parse();
    eprintln!("yasmin-rs: not implemented yet ({} files)", config.files.len());
    std::process::exit(70);
}
