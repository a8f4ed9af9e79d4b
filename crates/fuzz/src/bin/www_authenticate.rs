//! Fuzz target `www_authenticate`: see `mcpg_fuzz::targets::www_authenticate`.

fn main() {
    mcpg_fuzz::main(mcpg_fuzz::targets::www_authenticate);
}
