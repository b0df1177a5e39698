//! One folder per game, each with the same files, and the registry that lists them. Pure: no
//! I/O, no Discord, no SQL.

pub mod cortexcape;
pub mod gates;
pub mod portal;
mod registry;
pub mod spacelab;
pub mod vortex;

pub use registry::{visit, GameVisitor};
