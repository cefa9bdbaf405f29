//! Operator implementations for [`Felt`]: `+ - * neg`, by value and by reference, and the
//! `*Assign` forms. All are constant-time.

use super::{Felt, mont};
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

macro_rules! binop {
    ($Tr:ident, $f:ident, $TrA:ident, $fa:ident, $op:path) => {
        impl $Tr<Felt> for Felt {
            type Output = Felt;
            #[inline(always)]
            fn $f(self, rhs: Felt) -> Felt {
                Felt($op(self.0, rhs.0))
            }
        }
        impl $Tr<&Felt> for Felt {
            type Output = Felt;
            #[inline(always)]
            fn $f(self, rhs: &Felt) -> Felt {
                Felt($op(self.0, rhs.0))
            }
        }
        impl $Tr<Felt> for &Felt {
            type Output = Felt;
            #[inline(always)]
            fn $f(self, rhs: Felt) -> Felt {
                Felt($op(self.0, rhs.0))
            }
        }
        impl $Tr<&Felt> for &Felt {
            type Output = Felt;
            #[inline(always)]
            fn $f(self, rhs: &Felt) -> Felt {
                Felt($op(self.0, rhs.0))
            }
        }
        impl $TrA<Felt> for Felt {
            #[inline(always)]
            fn $fa(&mut self, rhs: Felt) {
                self.0 = $op(self.0, rhs.0);
            }
        }
        impl $TrA<&Felt> for Felt {
            #[inline(always)]
            fn $fa(&mut self, rhs: &Felt) {
                self.0 = $op(self.0, rhs.0);
            }
        }
    };
}

binop!(Add, add, AddAssign, add_assign, mont::add);
binop!(Sub, sub, SubAssign, sub_assign, mont::sub);
binop!(Mul, mul, MulAssign, mul_assign, mont::mul);

impl Neg for Felt {
    type Output = Felt;
    #[inline(always)]
    fn neg(self) -> Felt {
        Felt(mont::neg(self.0))
    }
}

impl Neg for &Felt {
    type Output = Felt;
    #[inline(always)]
    fn neg(self) -> Felt {
        Felt(mont::neg(self.0))
    }
}

impl Sum for Felt {
    fn sum<I: Iterator<Item = Felt>>(iter: I) -> Felt {
        iter.fold(Felt::ZERO, |a, b| a + b)
    }
}

impl<'a> Sum<&'a Felt> for Felt {
    fn sum<I: Iterator<Item = &'a Felt>>(iter: I) -> Felt {
        iter.fold(Felt::ZERO, |a, b| a + b)
    }
}

impl Product for Felt {
    fn product<I: Iterator<Item = Felt>>(iter: I) -> Felt {
        iter.fold(Felt::ONE, |a, b| a * b)
    }
}

impl<'a> Product<&'a Felt> for Felt {
    fn product<I: Iterator<Item = &'a Felt>>(iter: I) -> Felt {
        iter.fold(Felt::ONE, |a, b| a * b)
    }
}
