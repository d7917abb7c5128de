// The upstream's utils.rs, compiled where its `mod utils;` looks for it (nothing copied: included by path).
include!(concat!(env!("SUNADASE_RS_SRC"), "/src/utils.rs"));
