//! Independent work over a large list, split into contiguous runs on up to
//! one thread per core (docs/scale.md): reading a catalog's table files, reading
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

/// How many items [`streamed`] lets wait for a thread: the producer
/// stops there until one is taken, so a fast producer holds no more.
const QUEUED: usize = 256;

/// `f` of each item of `items`, in their order, computed on one thread per
/// core but one (at most [`MAX_THREADS`]) while the calling thread, on the
/// remaining core, goes on taking items from `items` (which may be slow to
/// produce: a dump's statements as they are split). On one core, on the
/// calling thread. A panic in `f` is resumed on the caller.
pub(crate) fn streamed<T: Send, R: Send>(
    items: impl Iterator<Item = T>,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.saturating_sub(1).min(MAX_THREADS);
    if threads == 0 {
        return items.map(f).collect();
    }
    let f = &f;
    let (work, queue) = std::sync::mpsc::sync_channel::<(usize, T)>(QUEUED);
    let queue = std::sync::Mutex::new(queue);
    let (done, results) = std::sync::mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (queue, done) = (&queue, done.clone());
                scope.spawn(move || loop {
                    // A poisoned lock is another worker's panic, resumed below.
                    let next = match queue.lock() {
                        Ok(q) => q.recv(),
                        Err(_) => return,
                    };
                    let Ok((i, item)) = next else { return };
                    if done.send((i, f(item))).is_err() {
                        return;
                    }
                })
            })
            .collect();
        drop(done);
        let mut count = 0;
        for item in items {
            if work.send((count, item)).is_err() {
                break; // every worker panicked: resumed below
            }
            count += 1;
        }
        drop(work);
        let mut out: Vec<Option<R>> = std::iter::repeat_with(|| None).take(count).collect();
        for (i, r) in results {
            out[i] = Some(r);
        }
        for h in handles {
            if let Err(panic) = h.join() {
                std::panic::resume_unwind(panic);
            }
        }
        out.into_iter().flatten().collect()
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
    fn streamed_keeps_the_order_of_the_items() {
        for n in [0, 1, 7, 1000, 3 * QUEUED + 5] {
            let got = streamed(0..n, |i| {
                if i % 3 == 0 {
                    std::thread::yield_now();
                }
                i * 2
            });
            assert_eq!(got, (0..n).map(|i| i * 2).collect::<Vec<_>>(), "{n} items");
        }
    }

    #[test]
    #[should_panic(expected = "item 5")]
    fn a_panic_in_streamed_work_reaches_the_caller() {
        streamed(0..100, |i| assert_ne!(i, 5, "item 5"));
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
