//! One folder per game, each with the same files. Pure: no I/O, no Discord, no SQL.

pub mod cortexcape;
pub mod gates;
pub mod portal;
pub mod spacelab;
pub mod vortex;
