//! Counts that refuse to wrap: every merge of tallies adds integers, and a sum beyond 64 bits
//! (which only a hand-edited file can claim) is an error, not a wrapped count. Its own module, so
//! that the game statistics (`game`) and the histograms (`histogram`) both use it without
//! importing each other.

/// A sum of counts beyond 64 bits: only a hand-edited file can claim counts that large, so
/// merging refuses it rather than wrap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("counts overflow 64 bits")]
pub struct Overflow;

/// `a += b`, or [`Overflow`].
pub fn add_to(a: &mut u64, b: u64) -> Result<(), Overflow> {
    *a = a.checked_add(b).ok_or(Overflow)?;
    Ok(())
}
