//! A contract of hostile names and strings (tests/hostile/hostile.md) through
//! `fkcgen gen --lang rust`: the module compiles with `-D warnings` (editions 2021 and 2024)
//! inside a test harness whose
//! tests read every string back and use every keyword-named item; rustdoc finds no doctest in
//! its doc comments; and the names Rust cannot take are refused with the contract's line.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{:?}: {}", cmd, e));
    assert!(out.status.success(), "{:?} failed:\n{}\n{}", cmd,
            String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    out
}

fn here(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The editions the generated module is compiled under: 2021, and 2024 when this rustc has it
/// (1.85 and up; Debian 12's 1.63 has not, which the test says).
fn editions() -> Vec<&'static str> {
    let out = run(Command::new(env!("FKC_RUSTC")).arg("--version"));
    let version = String::from_utf8_lossy(&out.stdout).to_string();
    let minor: u32 = version.split('.').nth(1).and_then(|m| m.parse().ok()).unwrap_or(0);
    if minor >= 85 {
        vec!["2021", "2024"]
    } else {
        println!("{}: no edition 2024; the module is compiled under 2021 only", version.trim());
        vec!["2021"]
    }
}

#[test]
fn hostile_contract_compiles_strictly_and_reads_back() {
    let dir = scratch("hostile");
    run(Command::new(env!("FKC_FKCGEN"))
        .args(["gen", "--lang", "rust", "--out-dir"])
        .arg(&dir)
        .arg(here("tests/hostile/hostile.md")));
    let module = dir.join("fkc_bindings.rs");
    for edition in editions() {
        let bin = dir.join(format!("harness{}", edition));
        run(Command::new(env!("FKC_RUSTC"))
            .args(["--edition", edition, "--test", "-D", "warnings", "-o"])
            .arg(&bin)
            .arg(here("tests/hostile/harness.rs"))
            .env("FKC_HOSTILE_RS", &module));
        let out = run(&mut Command::new(&bin));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("test result: ok. 2 passed"), "{}", text);
    }
    // No doc comment of the module opens a code block rustdoc would run as a doctest.
    let rustdoc = Path::new(env!("FKC_RUSTC")).with_file_name("rustdoc");
    let out = run(Command::new(if rustdoc.is_file() { rustdoc } else { PathBuf::from("rustdoc") })
        .args(["--edition", "2021", "--test", "--crate-type", "lib", "--crate-name", "hostile"])
        .arg(here("tests/hostile/harness.rs"))
        .env("FKC_HOSTILE_RS", &module));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("running 0 tests"), "{}", text);
}

#[test]
fn names_rust_cannot_take_are_refused() {
    let dir = scratch("refused");
    let seed = std::fs::read_to_string(here("contracts/write_slice.md")).unwrap();
    for (from, to) in [("capacity: { kind: usize", "self: { kind: usize"),
                       ("- name: src\n", "- name: super\n"),
                       ("variant: WriteSlice #", "variant: Self #"),
                       ("op_kind: WriteSliceRotating", "op_kind: Crate")] {
        assert!(seed.contains(from), "{}", from);
        let path = dir.join("bad.md");
        std::fs::write(&path, seed.replacen(from, to, 1)).unwrap();
        let line = seed.replacen(from, to, 1).lines().position(|l| l.contains(to.trim_end()))
            .unwrap() + 1;
        for args in [&["check"][..], &["gen", "--lang", "rust", "--out-dir"][..]] {
            let out = Command::new(env!("FKC_FKCGEN")).args(args).args(if args.len() > 1 {
                vec![dir.join("out")]
            } else {
                vec![]
            }).arg(&path).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{}: {}", to, err);
            assert!(err.contains(&format!("bad.md:{}:", line)), "{}: {}", to, err);
            assert!(!dir.join("out").exists(), "nothing written");
        }
    }
}
