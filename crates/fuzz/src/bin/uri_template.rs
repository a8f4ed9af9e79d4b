//! Fuzz target `uri_template`: see `mcpg_fuzz::targets::uri_template`.

fn main() {
    mcpg_fuzz::main(mcpg_fuzz::targets::uri_template);
}
