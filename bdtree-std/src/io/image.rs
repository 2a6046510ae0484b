//! Tree image files: the aligned bytes a builder writes (`.bdt`) and the kernel reads in place
//! ([`bdtree_core::Image::parse`]; the format is described in [`bdtree_core::image`]).

use std::path::Path;

use bdtree_core::{Header, Image, ImageError, Scalar};

use crate::error::LoadError;

/// A built image: aligned owned bytes that [`Image::parse`] reads in place.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageBuf {
    words: Vec<u64>,
    len: usize,
}

impl ImageBuf {
    /// Copies bytes into aligned storage.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
        Self {
            words,
            len: bytes.len(),
        }
    }

    /// Reads an image file.
    pub fn read(path: &Path) -> Result<Self, LoadError> {
        let bytes = std::fs::read(path).map_err(|e| LoadError::io(path, &e))?;
        Ok(Self::from_bytes(&bytes))
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &bytemuck::cast_slice::<u64, u8>(&self.words)[..self.len]
    }

    /// Validates and views the image (see [`Image::parse`]).
    pub fn parse<S: Scalar>(&self) -> Result<Image<'_, S>, ImageError> {
        Image::parse(self.as_bytes())
    }

    /// Like [`ImageBuf::parse`], with the error naming the file.
    pub fn parse_named<S: Scalar>(&self, path: &Path) -> Result<Image<'_, S>, LoadError> {
        self.parse()
            .map_err(|e| LoadError::new(path, e.to_string()))
    }

    /// The header, if the bytes have one.
    pub fn header(&self) -> Result<Header, ImageError> {
        Header::read(self.as_bytes())
    }
}
