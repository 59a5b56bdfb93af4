//! Benchmarks: see the module docs of each group.

fn main() {
    divan::main();
}
