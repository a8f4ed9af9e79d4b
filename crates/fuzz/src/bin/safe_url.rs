//! Fuzz target `safe_url`: see `mcpg_fuzz::targets::safe_url`.

fn main() {
    mcpg_fuzz::main(mcpg_fuzz::targets::safe_url);
}
