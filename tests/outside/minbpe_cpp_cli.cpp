// Adapter CLI for 1rsh/minbpe.cpp (a C++ port of karpathy/minbpe; header-only). Names and types only.
// Build: g++ -O2 -std=c++17 -I"$MINBPE_CPP_SRC" tests/outside/minbpe_cpp_cli.cpp -o minbpe_cpp_cli
// One request per line on stdin, one answer line on stdout (read by tests/outside/minbpe_cpp.py):
//   get_stats N ids...              -> "ok" then "l r count" triples, in the std::map's order
//   merge N ids... l r idx          -> "ok" ids...
//   train VOCAB HEX                 -> "ok" "l r idx" triples, in the std::map's order
//   encode M (l r idx)*M HEX        -> "ok" ids...
//   build_vocab M (l r idx)*M       -> "ok" "id HEX" pairs, in the unordered_map's order
//   decode V (id HEX)*V N ids...    -> "ok" HEX of the returned std::string
// An exception becomes "err MESSAGE". Upstream's progress bar goes to stdout, so fd 1 is stderr here
// and answers go to a saved copy of the real stdout.
#include "minbpe/basic.hpp"
#include <unistd.h>
#include <cstdio>

static string unhex(const string& h) {
    string s;
    for (size_t i = 0; i + 1 < h.size(); i += 2) s.push_back((char)stoi(h.substr(i, 2), nullptr, 16));
    return s;
}
static string hex(const string& s) {
    static const char* d = "0123456789abcdef";
    string h;
    for (unsigned char c : s) { h.push_back(d[c >> 4]); h.push_back(d[c & 15]); }
    return h;
}
static vector<int> read_ids(istringstream& in) {
    size_t n; in >> n; vector<int> v(n); for (auto& x : v) in >> x; return v;
}

int main() {
    FILE* answers = fdopen(dup(1), "w");
    dup2(2, 1);
    string line;
    while (getline(cin, line)) {
        istringstream in(line);
        string op; in >> op;
        ostringstream out;
        try {
            if (op == "get_stats") {
                auto ids = read_ids(in);
                out << "ok";
                for (auto& kv : get_stats(ids)) out << ' ' << kv.first.first << ' ' << kv.first.second << ' ' << kv.second;
            } else if (op == "merge") {
                auto ids = read_ids(in);
                int l, r, idx; in >> l >> r >> idx;
                out << "ok";
                for (int x : merge(ids, make_pair(l, r), idx)) out << ' ' << x;
            } else if (op == "train") {
                int vocab_size; string h; in >> vocab_size >> h;
                BasicTokenizer t;
                t.train(unhex(h), vocab_size);
                out << "ok";
                for (auto& kv : t.merges) out << ' ' << kv.first.first << ' ' << kv.first.second << ' ' << kv.second;
            } else if (op == "encode") {
                size_t m; in >> m;
                BasicTokenizer t;
                for (size_t i = 0; i < m; ++i) { int l, r, idx; in >> l >> r >> idx; t.merges[make_pair(l, r)] = idx; }
                string h; in >> h;
                out << "ok";
                for (int x : t.encode(unhex(h))) out << ' ' << x;
            } else if (op == "build_vocab") {
                size_t m; in >> m;
                BasicTokenizer t;
                for (size_t i = 0; i < m; ++i) { int l, r, idx; in >> l >> r >> idx; t.merges[make_pair(l, r)] = idx; }
                out << "ok";
                for (auto& kv : t._build_vocab()) out << ' ' << kv.first << ' ' << (kv.second.empty() ? "-" : hex(kv.second));
            } else if (op == "decode") {
                size_t v; in >> v;
                BasicTokenizer t;
                t.vocab.clear();
                for (size_t i = 0; i < v; ++i) { int id; string h; in >> id >> h; t.vocab[id] = unhex(h == "-" ? "" : h); }
                auto ids = read_ids(in);
                out << "ok " << hex(t.decode(ids));
            } else {
                out << "err unknown op " << op;
            }
        } catch (const exception& e) {
            out.str(""); out << "err " << e.what();
        }
        fprintf(answers, "%s\n", out.str().c_str());
        fflush(answers);
    }
}
