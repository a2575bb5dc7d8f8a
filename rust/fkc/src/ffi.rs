//! The C API of the fkc runtime (runtime/include/fkc/*.h), from the crate fkc-sys, which also
//! declares the runtime's byte-width wrappers (`<kernel>_b<width>`) and links libfkc. The
//! generated module names all of it `rt::...`: its kernel references are `rt::<kernel>_b<width>`,
//! the names the contracts give, so a contract binding a kernel this list lacks fails to
//! compile (a crate with an op family of its own gives the generated module an `rt` that adds
//! its wrappers to these). It also names `tables`, the crate's module of what every generated
//! module shares (`crate::tables`), so that the one name `rt` a generated module is given
//! reaches both.
pub use crate::tables;
pub use crate::sys::*;
