//! For tests: a chart read back from its PNG, pixel by pixel, so a test checks what a player
//! would see (bars of the right colour and length) rather than how the chart was drawn.

/// The eight bytes every PNG starts with.
pub const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// A decoded picture: its size and each pixel as 0xRRGGBB, row by row.
#[derive(Debug)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pixels: Vec<u32>,
}

impl Picture {
    /// Reads a PNG, failing the test if it is not one.
    pub fn decode(png: &[u8]) -> Picture {
        assert!(
            png.starts_with(&PNG_SIGNATURE),
            "not a PNG: {:?}",
            &png[..png.len().min(8)]
        );
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        // Palette entries become RGB, as a viewer shows them.
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut buffer = vec![0; reader.output_buffer_size().expect("a frame size")];
        let info = reader.next_frame(&mut buffer).expect("a PNG frame");
        assert_eq!(info.color_type, png::ColorType::Rgb, "an RGB picture");
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let pixels = buffer[..info.buffer_size()]
            .chunks_exact(3)
            .map(|p| u32::from_be_bytes([0, p[0], p[1], p[2]]))
            .collect();
        Picture {
            width: info.width,
            height: info.height,
            pixels,
        }
    }

    /// The colour at (`x`, `y`).
    pub fn at(&self, x: u32, y: u32) -> u32 {
        self.pixels[(y * self.width + x) as usize]
    }

    /// How many pixels have `colour`.
    pub fn count(&self, colour: u32) -> usize {
        self.pixels.iter().filter(|&&p| p == colour).count()
    }

    /// How many pixels of column `x` have `colour`.
    pub fn count_in_column(&self, x: u32, colour: u32) -> usize {
        (0..self.height)
            .filter(|&y| self.at(x, y) == colour)
            .count()
    }

    /// The smallest rectangle holding every pixel of `colour`, as (left, top, right, bottom),
    /// inclusive; `None` when there is none.
    pub fn bounds(&self, colour: u32) -> Option<(u32, u32, u32, u32)> {
        let mut found: Option<(u32, u32, u32, u32)> = None;
        for y in 0..self.height {
            for x in 0..self.width {
                if self.at(x, y) == colour {
                    found = Some(match found {
                        None => (x, y, x, y),
                        Some((l, t, r, b)) => (l.min(x), t.min(y), r.max(x), b.max(y)),
                    });
                }
            }
        }
        found
    }

    /// The runs of neighbouring columns holding `colour`, each as (first, last) inclusive.
    pub fn column_runs(&self, colour: u32) -> Vec<(u32, u32)> {
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for x in 0..self.width {
            if self.count_in_column(x, colour) == 0 {
                continue;
            }
            match runs.last_mut() {
                Some((_, last)) if *last + 1 == x => *last = x,
                _ => runs.push((x, x)),
            }
        }
        runs
    }
}
