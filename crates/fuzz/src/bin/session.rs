//! Fuzz target `session`: see `mcpg_fuzz::targets::session`.

fn main() {
    mcpg_fuzz::main(mcpg_fuzz::targets::session);
}
