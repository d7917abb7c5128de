//! Adapter: sunadase/minbpe_rust (a Rust port of karpathy/minbpe, a binary crate) over the bpe-kata
//! stdio protocol (docs/PROTOCOL.md). Names and types only.
//!
//! The upstream's src/main.rs is compiled as module `upstream` (its path comes from SUNADASE_RS_SRC at
//! build time), and the adapter is a child module of it, so it can call the upstream's private
//! `merge`, `frequent_pair` and `BasicTokenizer` as they are. Upstream prints progress with println!, so
//! fd 1 is pointed at stderr and the protocol is written to a saved copy of the real stdout.
#![allow(dead_code, unused_imports, unused_variables, unused_mut)]

mod upstream {
    include!(concat!(env!("SUNADASE_RS_SRC"), "/src/main.rs"));

    pub mod adapter {
        use super::{frequent_pair, merge, BasicTokenizer, Ordering};
        use serde_json::{json, Value};
        use std::collections::HashMap;

        fn ids(v: &Value) -> Vec<u32> {
            v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
        }

        fn resolve<'a>(v: &'a Value, defs: &'a HashMap<String, Value>) -> &'a Value {
            match v.get("ref") { Some(n) => &defs[n.as_str().unwrap()], None => v }
        }

        pub enum Outcome { Ok(Value), NotOffered(String) }

        pub fn call(op: &str, a: &Value, defs: &mut HashMap<String, Value>) -> Outcome {
            let has = |k: &str| a.get(k).map_or(false, |v| !v.is_null());
            for k in ["pattern", "special_tokens", "tie_rule"] {
                if has(k) { return Outcome::NotOffered(format!("{} not offered by sunadase/minbpe_rust", k)); }
            }
            Outcome::Ok(match op {
                "hello" => json!({"protocol": 1, "name": "sunadase/minbpe_rust", "version": null,
                    "features": ["encode", "get_stats", "merge", "train", "decode"]}),
                "define" => { defs.insert(a["name"].as_str().unwrap().to_string(), a["value"].clone()); Value::Null }
                // Upstream has no get_stats; its pair counter is frequent_pair(ids, k, order): all pairs, most frequent first.
                "get_stats" => {
                    let v = ids(&a["ids"]);
                    Value::Array(frequent_pair(&v, v.len(), Ordering::Descending).into_iter()
                        .map(|(n, (l, r))| json!([l, r, n])).collect())
                }
                "merge" => {
                    let p = ids(&a["pair"]);
                    json!(merge(&ids(&a["ids"]), &(p[0], p[1]), &(a["idx"].as_u64().unwrap() as u32)))
                }
                // A HashMap has no order; the contract's table is ordered by training, which the ids record.
                "train" => {
                    let t = BasicTokenizer::train(&a["text"].as_str().unwrap().to_string(),
                                                  a["vocab_size"].as_i64().unwrap() as u32, None);
                    let mut m: Vec<_> = t.merges.iter().map(|(&(l, r), &i)| (i, l, r)).collect();
                    m.sort();
                    Value::Array(m.into_iter().map(|(i, l, r)| json!([l, r, i])).collect())
                }
                "decode" => {
                    let vocab: HashMap<u32, Vec<u32>> = resolve(&a["vocab"], defs).as_array().unwrap().iter().map(|t| {
                        let hex = t[1].as_str().unwrap();
                        (t[0].as_u64().unwrap() as u32,
                         (0..hex.len()).step_by(2).map(|i| u32::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect())
                    }).collect();
                    let t = BasicTokenizer { trained: true, vocab_size: 0, num_merges: 0, merges: HashMap::new(), vocab };
                    json!(t.decode(ids(&a["ids"])))
                }
                "encode" => {
                    let merges: HashMap<(u32, u32), u32> = resolve(&a["merges"], defs).as_array().unwrap().iter()
                        .map(|t| ((t[0].as_u64().unwrap() as u32, t[1].as_u64().unwrap() as u32), t[2].as_u64().unwrap() as u32))
                        .collect();
                    let t = BasicTokenizer { trained: true, vocab_size: 0, num_merges: 0, merges, vocab: HashMap::new() };
                    json!(t.encode(&a["text"].as_str().unwrap().to_string()))
                }
                other => return Outcome::NotOffered(format!("op {} not offered", other)),
            })
        }
    }
}

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::os::unix::io::FromRawFd;
use std::sync::Mutex;
use upstream::adapter::{call, Outcome};

extern "C" {
    fn dup(fd: i32) -> i32;
    fn dup2(from: i32, to: i32) -> i32;
}

static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

fn main() {
    let mut out = unsafe { let fd = dup(1); dup2(2, 1); std::fs::File::from_raw_fd(fd) };
    std::panic::set_hook(Box::new(|info| {
        let place = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
        let msg = info.payload().downcast_ref::<&str>().map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned()).unwrap_or_default();
        *LAST_PANIC.lock().unwrap() = format!("panicked at {}: {}", place, msg);
    }));
    let mut defs: HashMap<String, Value> = HashMap::new();
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let response = match serde_json::from_str::<Value>(&line) {
            Err(e) => {
                // A text a Rust String cannot hold (a lone surrogate escape) fails here, before any call.
                let id: i64 = line.split("\"id\":").nth(1).and_then(|s| s.trim_start().split(|c: char| !c.is_ascii_digit()).next())
                    .and_then(|s| s.parse().ok()).unwrap_or(-1);
                json!({"id": id, "ok": false, "error": {"kind": "Error", "message": format!("request not readable as Rust strings: {}", e)}})
            }
            Ok(request) => {
                let id = request["id"].clone();
                let op = request["op"].as_str().unwrap_or("").to_string();
                let args = request.get("args").cloned().unwrap_or(json!({}));
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| call(&op, &args, &mut defs))) {
                    Ok(Outcome::Ok(v)) => json!({"id": id, "ok": true, "result": v}),
                    Ok(Outcome::NotOffered(m)) => json!({"id": id, "ok": false, "error": {"kind": "NotImplemented", "message": m}}),
                    Err(_) => json!({"id": id, "ok": false, "error": {"kind": "Error", "message": LAST_PANIC.lock().unwrap().clone()}}),
                }
            }
        };
        writeln!(out, "{}", response).unwrap();
        out.flush().unwrap();
    }
}
