//! Where the records of a parsed effect sat, so that the writer puts an unchanged effect back
//! byte for byte.

/// Where a parsed effect's unstructured records sat.
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct Layout {
    /// The parsed unstructured data.
    pub(crate) unstructured: Vec<u8>,
    /// `(offset, length)` of every record in visiting order.
    pub(crate) records: Vec<(u32, u32)>,
    /// The padding bytes after each small object, then each large object.
    pub(crate) padding: Vec<Vec<u8>>,
}

impl Layout {
    pub(crate) fn new(unstructured: Vec<u8>) -> Self {
        Layout {
            unstructured,
            ..Layout::default()
        }
    }

    pub(crate) fn record(&mut self, offset: u32, len: u32) {
        self.records.push((offset, len));
    }

    /// Notes a record whose length is known only after reading it.
    pub(crate) fn reserve(&mut self, offset: u32) -> usize {
        self.records.push((offset, 0));
        self.records.len() - 1
    }

    pub(crate) fn finish(&mut self, slot: usize, len: u32) {
        self.records[slot].1 = len;
    }
}
