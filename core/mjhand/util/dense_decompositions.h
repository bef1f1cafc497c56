// Eigen's dense decompositions of dynamic-size double matrices, and of the fixed sizes the library uses (3x3, 6x6,
// 6x5), compiled once in dense_decompositions.cc and fixed_size_decompositions.cc instead of in every file that uses
// them: at -O3 one JacobiSVD<MatrixXd> costs a file about 10 s of compile time, one
// SelfAdjointEigenSolver<Matrix<double, 6, 6>> about 3 s (docs/reliability.md, "Compile time"). A decomposition's
// compute() of another argument type (an expression, a Ref) is still compiled where it is used: pass a plain matrix
// of the decomposition's type to get the shared copy. Include this header instead of <Eigen/SVD>, <Eigen/QR>,
// <Eigen/LU>, <Eigen/Cholesky> or <Eigen/Eigenvalues> wherever one of the types below is used, before any use.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

extern template class Eigen::JacobiSVD<Eigen::MatrixXd>;
extern template class Eigen::FullPivLU<Eigen::MatrixXd>;
extern template class Eigen::PartialPivLU<Eigen::MatrixXd>;
extern template class Eigen::HouseholderQR<Eigen::MatrixXd>;
extern template class Eigen::ColPivHouseholderQR<Eigen::MatrixXd>;
extern template class Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>;
extern template class Eigen::LLT<Eigen::MatrixXd>;
extern template class Eigen::LDLT<Eigen::MatrixXd>;
extern template class Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>;
// compute() of these three is a member template: declared here for a MatrixXd argument (the common case).
extern template Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>& Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>::compute(
    const Eigen::EigenBase<Eigen::MatrixXd>&, int);
extern template Eigen::LLT<Eigen::MatrixXd>& Eigen::LLT<Eigen::MatrixXd>::compute(const Eigen::EigenBase<Eigen::MatrixXd>&);
extern template Eigen::LDLT<Eigen::MatrixXd>& Eigen::LDLT<Eigen::MatrixXd>::compute(const Eigen::EigenBase<Eigen::MatrixXd>&);
// Solving with a column-pivoting QR for one right-hand side (coil fits, coupling fits).
extern template void Eigen::ColPivHouseholderQR<Eigen::MatrixXd>::_solve_impl(const Eigen::VectorXd&,
                                                                             Eigen::VectorXd&) const;

// Fixed sizes: 6x6 (wrench-space Gram and covariance matrices, squeeze distribution, Levenberg-Marquardt steps),
// 3x3 (fingertip Jacobians, rotations), 6x5 (facet edges of the wrench hull). Only the factorising member each
// constructor calls is shared: instantiating the whole class at a fixed size costs more than its users save.
// JacobiSVD<Matrix3d> is left out on purpose: fingertip_kinematics runs it every step (singularity measures), and
// the shared copy, compiled without the call site's constant options, cost 0.17 % more instructions per step of the
// e_GRASP scene (scripts/check-claims.sh).
namespace mjhand::decomposition_types {
using Matrix6d = Eigen::Matrix<double, 6, 6>;
using Matrix65d = Eigen::Matrix<double, 6, 5>;
}  // namespace mjhand::decomposition_types
#define MJHAND_FIXED_SIZE_DECOMPOSITIONS(EXTERN)                                                                     \
  EXTERN template Eigen::SelfAdjointEigenSolver<mjhand::decomposition_types::Matrix6d>&                              \
  Eigen::SelfAdjointEigenSolver<mjhand::decomposition_types::Matrix6d>::compute(                                     \
      const Eigen::EigenBase<mjhand::decomposition_types::Matrix6d>&, int);                                          \
  EXTERN template Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>& Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>::compute( \
      const Eigen::EigenBase<Eigen::Matrix3d>&, int);                                                                \
  EXTERN template void Eigen::FullPivLU<mjhand::decomposition_types::Matrix6d>::computeInPlace();                    \
  EXTERN template Eigen::LLT<mjhand::decomposition_types::Matrix6d>&                                                 \
  Eigen::LLT<mjhand::decomposition_types::Matrix6d>::compute(const Eigen::EigenBase<mjhand::decomposition_types::Matrix6d>&); \
  EXTERN template Eigen::LDLT<mjhand::decomposition_types::Matrix6d>&                                                \
  Eigen::LDLT<mjhand::decomposition_types::Matrix6d>::compute(const Eigen::EigenBase<mjhand::decomposition_types::Matrix6d>&); \
  EXTERN template void Eigen::PartialPivLU<mjhand::decomposition_types::Matrix6d>::compute();                         \
  EXTERN template void Eigen::PartialPivLU<Eigen::Matrix3d>::compute();                                              \
  EXTERN template void Eigen::HouseholderQR<mjhand::decomposition_types::Matrix65d>::computeInPlace();
MJHAND_FIXED_SIZE_DECOMPOSITIONS(extern)
