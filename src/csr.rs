//! Compressed sparse rows: values grouped by key in two flat arrays, `offsets` and `values`, the
//! layout the nogood store, the occurrence maps, the head and dependency maps and the device
//! buffers share.
//!
//! Invariant: `offsets.len() == n + 1`, `offsets[0] == 0`, offsets never decrease and
//! `offsets[n] == values.len()`; row `k` is `values[offsets[k]..offsets[k + 1]]`, holding the
//! values given for key `k` in the order they were given (the build is stable).

/// Rows `0..n` of values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr<T> {
    pub offsets: Vec<u32>,
    pub values: Vec<T>,
}

impl<T: Copy + Default> Csr<T> {
    /// The rows of `(key, value)` pairs, keys below `n`; `pairs` is walked twice (a count,
    /// then the fill), so it must yield the same pairs both times.
    pub fn from_pairs(n: usize, pairs: impl Iterator<Item = (usize, T)> + Clone) -> Csr<T> {
        let mut offsets = vec![0u32; n + 1];
        for (k, _) in pairs.clone() {
            offsets[k + 1] += 1;
        }
        for k in 0..n {
            offsets[k + 1] += offsets[k];
        }
        let mut fill = offsets.clone();
        let mut values = vec![T::default(); offsets[n] as usize];
        for (k, v) in pairs {
            values[fill[k] as usize] = v;
            fill[k] += 1;
        }
        Csr { offsets, values }
    }
}

impl<T> Csr<T> {
    /// Row `k`.
    pub fn row(&self, k: usize) -> &[T] {
        &self.values[self.offsets[k] as usize..self.offsets[k + 1] as usize]
    }

    /// `(offsets, values)`, for structures that keep the two arrays as fields.
    pub fn into_parts(self) -> (Vec<u32>, Vec<T>) {
        (self.offsets, self.values)
    }
}

#[cfg(test)]
mod tests {
    use super::Csr;

    #[test]
    fn rows_keep_the_order_of_the_pairs() {
        let pairs = [(2, 'a'), (0, 'b'), (2, 'c'), (3, 'd'), (0, 'e')];
        let c = Csr::from_pairs(4, pairs.iter().copied());
        assert_eq!(c.offsets, [0, 2, 2, 4, 5]);
        assert_eq!(c.row(0), ['b', 'e']);
        assert!(c.row(1).is_empty());
        assert_eq!(c.row(2), ['a', 'c']);
        assert_eq!(c.row(3), ['d']);
        let empty = Csr::<u32>::from_pairs(3, std::iter::empty());
        assert_eq!(empty.offsets, [0, 0, 0, 0]);
    }
}
