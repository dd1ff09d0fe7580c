//! The run's data model: what a run is ([`report::RunInfo`]), the statistics every output
//! shows ([`report::Report`]), summary.json's schema ([`summary::Summary`]), and the one reader
//! of a run folder ([`load::load`], through [`reader::Folder`]: one directory handle, so a
//! folder committed anew while it is read is read as one run). Everything that writes or reads
//! a run agrees on it here: the exporters, the charts, `merge`, `compare`, `replay`, Python.

pub mod figures;
pub mod load;
pub mod reader;
pub mod report;
mod rows;
pub mod summary;
pub mod sweep;

/// `value` as warsim writes JSON everywhere (files and stdout): pretty, then a line break.
pub fn pretty_json<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(value)?;
    bytes.push(b'\n');
    Ok(bytes)
}
