//! Least-recently-served (LRS) arbiter (docs/sp2-switch.md): keeps its requesters in an order; a grant goes
//! to the first requesting one in that order, which then moves to the back.
//!
//! Model twin of the HDL arbiter. Up to 64 requesters. Combinational grant; the order updates at the edge.

/// The arbiter state: `order[0]` has the highest priority.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lrs {
    order: Vec<u8>,
}

impl Lrs {
    /// `n` requesters, initially in index order (0 first).
    pub fn new(n: usize) -> Self {
        assert!((1..=64).contains(&n));
        Lrs {
            order: (0..n as u8).collect(),
        }
    }
    /// The requester that would be granted among `requests` (bit i = requester i), if any.
    pub fn pick(&self, requests: u64) -> Option<u8> {
        self.order.iter().copied().find(|&i| requests >> i & 1 == 1)
    }
    /// Moves `granted` to the back (call at the edge with the cycle's grant).
    pub fn served(&mut self, granted: u8) {
        let pos = self
            .order
            .iter()
            .position(|&i| i == granted)
            .expect("granted requester exists");
        self.order.remove(pos);
        self.order.push(granted);
    }
    /// The requesters by priority, highest first (each index once; the most recently served is last).
    pub fn order(&self) -> &[u8] {
        &self.order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_recently_served_first() {
        let mut a = Lrs::new(4);
        assert_eq!(a.pick(0b1010), Some(1));
        a.served(1);
        assert_eq!(a.pick(0b1010), Some(3));
        a.served(3);
        assert_eq!(a.pick(0b1011), Some(0));
        a.served(0);
        assert_eq!(a.pick(0b1011), Some(1));
        assert_eq!(a.pick(0), None);
        assert_eq!(a.order(), &[2, 1, 3, 0]);
    }
}
