// Migrations are embedded at compile time (rusqlite_migration `from-directory`): rebuild when they change.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
