//! Independent work over a large list, split into contiguous runs on up to
//! one thread per core (issue 22): reading a catalog's table files, reading
//! back a rendered catalog. The results come back in the list's order, so a
//! caller gets what one thread going through the list would give.

/// Items per thread, at least: a list shorter than twice this is handled
/// on the calling thread, with no thread started.
pub(crate) const ITEMS_PER_THREAD: usize = 256;

/// At most this many threads, whatever the cores.
const MAX_THREADS: usize = 4;

/// How many runs a list of `items` is split into on a machine of `cores`:
/// one per core (at most [`MAX_THREADS`]), each of [`ITEMS_PER_THREAD`]
/// items or more, and at least one.
fn run_count(items: usize, cores: usize) -> usize {
    cores.min(MAX_THREADS).min(items / ITEMS_PER_THREAD).max(1)
}

/// `f` of each contiguous run of `items`, in order. One run is done on the
/// calling thread; more run on scoped threads, a panic in one of them
/// resumed on the caller.
pub(crate) fn runs<T: Sync, R: Send>(items: &[T], f: impl Fn(&[T]) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let count = run_count(items.len(), cores);
    if count == 1 {
        return vec![f(items)];
    }
    let run = items.len().div_ceil(count);
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(run)
            .map(|chunk| scope.spawn(move || f(chunk)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_list_is_one_run_and_a_long_one_one_per_core_up_to_four() {
        assert_eq!(run_count(0, 8), 1);
        assert_eq!(run_count(2 * ITEMS_PER_THREAD - 1, 8), 1);
        assert_eq!(run_count(2 * ITEMS_PER_THREAD, 8), 2);
        assert_eq!(run_count(100 * ITEMS_PER_THREAD, 2), 2);
        assert_eq!(run_count(100 * ITEMS_PER_THREAD, 64), MAX_THREADS);
        assert_eq!(run_count(100 * ITEMS_PER_THREAD, 1), 1);
    }

    #[test]
    fn runs_cover_the_list_in_order() {
        for n in [0, 1, 255, 512, 1000, 4097] {
            let items: Vec<usize> = (0..n).collect();
            let got = runs(&items, |run| run.to_vec());
            assert!(!got.is_empty());
            let flat: Vec<usize> = got.into_iter().flatten().collect();
            assert_eq!(flat, items, "{n} items");
        }
    }
}
