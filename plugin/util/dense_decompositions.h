// Eigen's dense decompositions of dynamic-size double matrices, compiled once in dense_decompositions.cc instead of
// in every file that uses them: at -O3 one JacobiSVD<MatrixXd> costs a file about 10 s of compile time
// (docs/reliability.md, "Compile time"). Include this header instead of <Eigen/SVD>, <Eigen/QR>, <Eigen/LU>,
// <Eigen/Cholesky> or <Eigen/Eigenvalues> wherever one of the types below is used, before any use.
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
