// The dynamic-size decompositions declared extern in dense_decompositions.h, instantiated here once.
#include <mjhand/util/dense_decompositions.h>

template class Eigen::JacobiSVD<Eigen::MatrixXd>;
template class Eigen::FullPivLU<Eigen::MatrixXd>;
template class Eigen::PartialPivLU<Eigen::MatrixXd>;
template class Eigen::HouseholderQR<Eigen::MatrixXd>;
template class Eigen::ColPivHouseholderQR<Eigen::MatrixXd>;
template class Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>;
template class Eigen::LLT<Eigen::MatrixXd>;
template class Eigen::LDLT<Eigen::MatrixXd>;
template class Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>;
template Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>& Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>::compute(
    const Eigen::EigenBase<Eigen::MatrixXd>&, int);
template Eigen::LLT<Eigen::MatrixXd>& Eigen::LLT<Eigen::MatrixXd>::compute(const Eigen::EigenBase<Eigen::MatrixXd>&);
template Eigen::LDLT<Eigen::MatrixXd>& Eigen::LDLT<Eigen::MatrixXd>::compute(const Eigen::EigenBase<Eigen::MatrixXd>&);

template void Eigen::ColPivHouseholderQR<Eigen::MatrixXd>::_solve_impl(const Eigen::VectorXd&,
                                                                             Eigen::VectorXd&) const;
