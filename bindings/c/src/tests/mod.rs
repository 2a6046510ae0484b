//! The crate's tests, one file per concept of the library (`boxes`, `closer`, `contacts`,
//! `jacobian`, `response`, `self_collision`, `swept`, `world`), each calling it through the C names only
//! ([`crate::c_names`]); `layout` holds the floor plan of the crate docs.

mod boxes;
mod closer;
mod contacts;
mod jacobian;
mod layout;
mod response;
mod self_collision;
mod swept;
mod world;
