//===- RelayMLIRPrecompiled.cpp - the precompiled header's target ---------===//
//
// RelayMLIRPrecompiledHeaders builds cmake/RelayMLIRPrecompiled.h's
// precompiled header, which the libraries and tools reuse; CMake needs a
// source to build the target from, and this is it.
//
//===----------------------------------------------------------------------===//
