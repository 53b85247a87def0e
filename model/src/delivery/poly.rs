//! Polynomials in p with exact integer coefficients, for delivery probabilities S(v, u) (seed 003).
//!
//! Coefficients are big integers: on a 20×20 torus S has degree up to ~80 and the sign tests below scale
//! coefficients by 2^degree, far beyond 128 bits.
//!
//! [`Poly::sign_on_unit`] decides the sign of a polynomial on the open interval (0, 1) exactly: it writes the
//! polynomial in the Bernstein basis of the interval (Descartes' rule of signs after the substitution
//! p = x / (1 + x)) and bisects until every piece has no sign change or a root is located exactly.

use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::fmt;

/// A polynomial Σ c_k p^k with integer coefficients (`coeffs[k]` = c_k, no trailing zeros).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Poly {
    coeffs: Vec<BigInt>,
}

/// The sign of a polynomial on the open interval (0, 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    /// Identically zero.
    Zero,
    /// Strictly positive on all of (0, 1).
    Positive,
    /// Strictly negative on all of (0, 1).
    Negative,
    /// Takes both signs on (0, 1).
    Changes,
    /// Never changes sign but touches zero inside (0, 1) (a root of even multiplicity); `true` = non-negative.
    Touches(bool),
    /// Bisection reached its depth limit near a root of even multiplicity at a non-dyadic point: the sign
    /// is not decided. Reported as such, never guessed.
    Unresolved,
}

impl Poly {
    /// The zero polynomial (no coefficients).
    pub fn zero() -> Self {
        Poly { coeffs: vec![] }
    }
    /// The constant 1.
    pub fn one() -> Self {
        Poly::constant(1)
    }
    /// The constant `c`.
    pub fn constant(c: i64) -> Self {
        Poly::from_coeffs(vec![BigInt::from(c)])
    }
    /// p
    pub fn p() -> Self {
        Poly::from_i64(&[0, 1])
    }
    /// 1 − p
    pub fn q() -> Self {
        Poly::from_i64(&[1, -1])
    }
    /// Σ `c[k]` p^k.
    pub fn from_i64(c: &[i64]) -> Self {
        Poly::from_coeffs(c.iter().map(|&x| BigInt::from(x)).collect())
    }
    /// Σ `coeffs[k]` p^k (trailing zeros dropped).
    pub fn from_coeffs(mut coeffs: Vec<BigInt>) -> Self {
        while coeffs.last().is_some_and(|c| c.is_zero()) {
            coeffs.pop();
        }
        Poly { coeffs }
    }
    /// The coefficients, constant term first, without trailing zeros (empty for zero).
    pub fn coeffs(&self) -> &[BigInt] {
        &self.coeffs
    }
    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.coeffs.is_empty()
    }
    /// Degree (0 for constants and for zero).
    pub fn degree(&self) -> usize {
        self.coeffs.len().saturating_sub(1)
    }
    /// The lowest-order non-zero coefficient and its power (seed 003, Theorem 3: it equals P(v)).
    pub fn lowest_term(&self) -> Option<(usize, &BigInt)> {
        self.coeffs.iter().enumerate().find(|(_, c)| !c.is_zero())
    }

    /// `self + o`.
    pub fn add(&self, o: &Poly) -> Poly {
        let n = self.coeffs.len().max(o.coeffs.len());
        let z = BigInt::zero();
        Poly::from_coeffs(
            (0..n)
                .map(|k| self.coeffs.get(k).unwrap_or(&z) + o.coeffs.get(k).unwrap_or(&z))
                .collect(),
        )
    }
    /// `self − o`.
    pub fn sub(&self, o: &Poly) -> Poly {
        let n = self.coeffs.len().max(o.coeffs.len());
        let z = BigInt::zero();
        Poly::from_coeffs(
            (0..n)
                .map(|k| self.coeffs.get(k).unwrap_or(&z) - o.coeffs.get(k).unwrap_or(&z))
                .collect(),
        )
    }
    /// `self · o`.
    pub fn mul(&self, o: &Poly) -> Poly {
        if self.is_zero() || o.is_zero() {
            return Poly::zero();
        }
        let mut c = vec![BigInt::zero(); self.coeffs.len() + o.coeffs.len() - 1];
        for (i, a) in self.coeffs.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, b) in o.coeffs.iter().enumerate() {
                c[i + j] += a * b;
            }
        }
        Poly::from_coeffs(c)
    }
    /// `self^e` (1 for `e` = 0).
    pub fn pow(&self, e: usize) -> Poly {
        (0..e).fold(Poly::one(), |a, _| a.mul(self))
    }

    /// Value at a floating-point p (Horner).
    pub fn eval(&self, p: f64) -> f64 {
        self.coeffs.iter().rev().fold(0.0, |a, c| a * p + to_f64(c))
    }

    /// Coefficients as i64 where they fit (for JSON output), else `None`.
    pub fn to_i64(&self) -> Option<Vec<i64>> {
        self.coeffs.iter().map(|c| i64::try_from(c).ok()).collect()
    }

    /// The exact sign of the polynomial at the dyadic point p = num / 2^bits (−1, 0 or 1).
    pub fn sign_at_dyadic(&self, num: u64, bits: u32) -> i32 {
        let d = self.degree();
        let x = BigInt::from(num);
        // 2^(bits·d) f(num/2^bits) = Σ c_k num^k 2^(bits·(d−k)), evaluated by Horner in integers.
        let mut acc = BigInt::zero();
        let mut pow = BigInt::one();
        for (k, c) in self.coeffs.iter().enumerate() {
            acc += (c * &pow) << (bits as usize * (d - k));
            pow *= &x;
        }
        if acc.is_positive() {
            1
        } else if acc.is_negative() {
            -1
        } else {
            0
        }
    }

    /// A root in (0, 1) where the sign changes, located by exact bisection to 2^−`bits` (the polynomial must
    /// take opposite signs at `lo` and `hi`, given as fractions of 2^bits). Returns the midpoint as f64.
    pub fn crossing(&self, bits: u32) -> Option<f64> {
        let scale = 1u64 << bits;
        // Find a sign change on a coarse grid first.
        let grid = 1024u64;
        let step = scale / grid;
        let mut prev = self.sign_at_dyadic(step, bits);
        for g in 2..grid {
            let s = self.sign_at_dyadic(g * step, bits);
            if s == 0 {
                return Some((g * step) as f64 / scale as f64);
            }
            if prev != 0 && s != prev {
                let (mut lo, mut hi) = ((g - 1) * step, g * step);
                while hi - lo > 1 {
                    let mid = (lo + hi) / 2;
                    let sm = self.sign_at_dyadic(mid, bits);
                    if sm == 0 {
                        return Some(mid as f64 / scale as f64);
                    }
                    if sm == prev {
                        lo = mid
                    } else {
                        hi = mid
                    }
                }
                return Some((lo + hi) as f64 / 2.0 / scale as f64);
            }
            prev = s;
        }
        None
    }

    /// The exact sign of the polynomial on the open interval (0, 1).
    pub fn sign_on_unit(&self) -> Sign {
        if self.is_zero() {
            return Sign::Zero;
        }
        let mut pos = false;
        let mut neg = false;
        let mut touches = false;
        // Work on integer polynomials over (0, 1); pieces are rescaled to (0, 1) exactly.
        let mut stack = vec![(self.coeffs.clone(), 0u32)];
        while let Some((c, depth)) = stack.pop() {
            match descartes(&c) {
                (0, s) => {
                    if s > 0 {
                        pos = true
                    } else {
                        neg = true
                    }
                }
                _ if depth > 120 => return Sign::Unresolved,
                _ => {
                    // Value at the midpoint, exactly: 2^d · f(1/2) = Σ c_k 2^(d-k).
                    let d = c.len() - 1;
                    let mid: BigInt = c.iter().enumerate().map(|(k, x)| x << (d - k)).sum();
                    if mid.is_zero() {
                        touches = true;
                    } else if mid.is_positive() {
                        pos = true;
                    } else {
                        neg = true;
                    }
                    if pos && neg {
                        return Sign::Changes;
                    }
                    let (l, r) = halves(&c);
                    // A root exactly at 1/2 would show as a zero constant term in `r`: divide it out.
                    stack.push((strip_root_at_zero(l.clone(), false), depth + 1));
                    stack.push((strip_root_at_zero(r, true), depth + 1));
                }
            }
            if pos && neg {
                return Sign::Changes;
            }
        }
        match (pos, neg, touches) {
            (true, false, false) => Sign::Positive,
            (false, true, false) => Sign::Negative,
            (true, false, true) => Sign::Touches(true),
            (false, true, true) => Sign::Touches(false),
            _ => Sign::Changes,
        }
    }
}

fn to_f64(c: &BigInt) -> f64 {
    use num_traits::ToPrimitive;
    c.to_f64().unwrap_or(f64::NAN)
}

/// Sign changes of the Bernstein coefficients on (0, 1), and the sign of the first non-zero one.
/// With p = x/(1+x), (1+x)^d f(x/(1+x)) = Σ_k c_k x^k (1+x)^(d−k); its coefficient sign changes bound the
/// number of roots in (0, 1) (Descartes); zero changes means no root there.
fn descartes(c: &[BigInt]) -> (usize, i32) {
    let d = c.len() - 1;
    let mut q = vec![BigInt::zero(); d + 1];
    // (1+x)^(d-k) binomials, accumulated.
    for (k, ck) in c.iter().enumerate() {
        if ck.is_zero() {
            continue;
        }
        let mut b = BigInt::one();
        for j in 0..=(d - k) {
            q[k + j] += ck * &b;
            b = b * BigInt::from(d - k - j) / BigInt::from(j + 1);
        }
    }
    let mut changes = 0;
    let mut last = 0i32;
    let mut first = 0i32;
    for x in &q {
        let s = if x.is_positive() {
            1
        } else if x.is_negative() {
            -1
        } else {
            0
        };
        if s != 0 {
            if first == 0 {
                first = s;
            }
            if last != 0 && s != last {
                changes += 1;
            }
            last = s;
        }
    }
    (changes, first)
}

/// The two halves of (0, 1), each rescaled to (0, 1) with integer coefficients:
/// left: 2^d f(p/2), right: 2^d f((1+p)/2).
fn halves(c: &[BigInt]) -> (Vec<BigInt>, Vec<BigInt>) {
    let d = c.len() - 1;
    let left: Vec<BigInt> = c.iter().enumerate().map(|(k, x)| x << (d - k)).collect();
    // right(p) = Σ c_k (1+p)^k 2^(d-k)  (Taylor shift by 1 of left's coefficients pattern)
    let mut right = vec![BigInt::zero(); d + 1];
    for (k, x) in c.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        let s = x << (d - k);
        let mut b = BigInt::one();
        for (j, r) in right.iter_mut().enumerate().take(k + 1) {
            *r += &s * &b;
            b = b * BigInt::from(k - j) / BigInt::from(j + 1);
        }
    }
    (left, right)
}

/// Removes factors p from a piece whose constant term is zero (a root at the piece's left end, i.e. at the
/// parent's midpoint); the left piece keeps its own root at 0 only if it is the original p = 0 boundary.
fn strip_root_at_zero(mut c: Vec<BigInt>, is_right: bool) -> Vec<BigInt> {
    if is_right {
        while c.len() > 1 && c[0].is_zero() {
            c.remove(0);
        }
    } else {
        // Left piece: a zero constant term is a root at p = 0 of the parent interval's left end, outside the
        // open interval; dividing by p does not change the sign inside.
        while c.len() > 1 && c[0].is_zero() {
            c.remove(0);
        }
    }
    c
}

impl fmt::Display for Poly {
    /// As the seed prints it: `8p^4 - 12p^5 + 6p^6 - p^7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return write!(f, "0");
        }
        let mut first = true;
        for (k, c) in self.coeffs.iter().enumerate() {
            if c.is_zero() {
                continue;
            }
            let neg = c.is_negative();
            let a = c.abs();
            let sep = match (first, neg) {
                (true, true) => "-",
                (true, false) => "",
                (false, true) => " - ",
                (false, false) => " + ",
            };
            let num = if a.is_one() && k > 0 {
                String::new()
            } else {
                a.to_string()
            };
            let var = match k {
                0 => String::new(),
                1 => "p".into(),
                _ => format!("p^{k}"),
            };
            write!(f, "{sep}{num}{var}")?;
            first = false;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_and_display() {
        let s31 = Poly::from_i64(&[0, 0, 0, 0, 8, -12, 6, -1]);
        assert_eq!(s31.to_string(), "8p^4 - 12p^5 + 6p^6 - p^7");
        assert_eq!(Poly::p().mul(&Poly::q()).to_string(), "p - p^2");
        assert_eq!(Poly::q().pow(2).to_string(), "1 - 2p + p^2");
        assert_eq!(
            s31.lowest_term().map(|(k, c)| (k, c.clone())),
            Some((4, BigInt::from(8)))
        );
        assert!(
            (s31.eval(0.5) - (8.0 / 16.0 - 12.0 / 32.0 + 6.0 / 64.0 - 1.0 / 128.0)).abs() < 1e-12
        );
    }

    #[test]
    fn signs() {
        assert_eq!(Poly::zero().sign_on_unit(), Sign::Zero);
        assert_eq!(Poly::p().sign_on_unit(), Sign::Positive);
        assert_eq!(Poly::q().sign_on_unit(), Sign::Positive);
        assert_eq!(Poly::from_i64(&[-1, 1]).sign_on_unit(), Sign::Negative); // p - 1
        assert_eq!(Poly::from_i64(&[-1, 3]).sign_on_unit(), Sign::Changes); // 3p - 1
        assert_eq!(Poly::from_i64(&[-1, 2]).sign_on_unit(), Sign::Changes); // root at 1/2
                                                                            // (2p - 1)^2 touches zero at 1/2.
        assert_eq!(
            Poly::from_i64(&[-1, 2]).pow(2).sign_on_unit(),
            Sign::Touches(true)
        );
        // (3p - 1)^2 touches at 1/3 (not a dyadic point).
        let t = Poly::from_i64(&[-1, 3]).pow(2);
        assert_eq!(t.sign_on_unit(), Sign::Unresolved);
        // S(3,1) − S(2,2) = p^4 (1−p)^2 (2−p) > 0 on (0,1) (seed 003).
        let d = Poly::from_i64(&[0, 0, 0, 0, 8, -12, 6, -1])
            .sub(&Poly::from_i64(&[0, 0, 0, 0, 6, -7, 2]));
        assert_eq!(
            d,
            Poly::p()
                .pow(4)
                .mul(&Poly::q().pow(2))
                .mul(&Poly::from_i64(&[2, -1]))
        );
        assert_eq!(d.sign_on_unit(), Sign::Positive);
        // A polynomial with two close roots inside: (10p - 3)(10p - 4) changes sign.
        assert_eq!(
            Poly::from_i64(&[12, -70, 100]).sign_on_unit(),
            Sign::Changes
        );
    }
}
