//===- BuilderTest.cpp - The seeds' programs built with the C++ API -------===//
//
// Builds the example programs of the Relay papers and language reference
// (../shared/seeds) with RelayBuilder, verifies them, and checks that they
// print and parse back to the same text.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayBuilder.h"
#include "tools/init/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

class RelayBuilderTest : public ::testing::Test {
protected:
  RelayBuilderTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = ModuleOp::create(UnknownLoc::get(&context));
    builder.setInsertionPointToEnd(module->getBody());
  }

  std::string print(Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os);
    return text;
  }

  /// Verifies the module and checks print -> parse -> print is stable.
  void expectValidAndRoundTrips() {
    ASSERT_TRUE(succeeded(verify(*module))) << print(*module);
    std::string text = print(*module);
    OwningOpRef<ModuleOp> reparsed =
        parseSourceString<ModuleOp>(text, ParserConfig(&context));
    ASSERT_TRUE(reparsed) << text;
    EXPECT_EQ(text, print(*reparsed));
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  OpBuilder builder{&context};
  RelayBuilder rb{builder, UnknownLoc::get(&context)};
};

// def @ackermann(%m : int32, %n : int32) -> int32 {
//   if (%m == 0) { %n + 1 }
//   else if (%m > 0 && %n == 0) { @ackermann(%m - 1, 1) }
//   else { @ackermann(%m - 1, @ackermann(%m, %n - 1)) }
// }
TEST_F(RelayBuilderTest, Ackermann) {
  Type i32 = rb.scalarType(rb.i32());
  FuncOp ack = rb.func(
      "ackermann", {i32, i32}, i32, [&](RelayBuilder &b, ValueRange args) {
        Value m = args[0], n = args[1];
        Value zero = b.scalar(0, b.i32()), one = b.scalar(1, b.i32());
        return b.ifThenElse(
            b.equal(m, zero), i32,
            [&](RelayBuilder &b) { return b.add(n, one); },
            [&](RelayBuilder &b) {
              Value cond = b.logicalAnd(b.greater(m, zero), b.equal(n, zero));
              return b.ifThenElse(
                  cond, i32,
                  [&](RelayBuilder &b) {
                    return b.call("ackermann", i32, {b.subtract(m, one), one});
                  },
                  [&](RelayBuilder &b) {
                    Value inner =
                        b.call("ackermann", i32, {m, b.subtract(n, one)});
                    return b.call("ackermann", i32,
                                  {b.subtract(m, one), inner});
                  });
            });
      });
  expectValidAndRoundTrips();
  EXPECT_EQ(ack.getRelayType(), FuncType::get(&context, {i32, i32}, i32));
  // Three recursive calls, all to @ackermann.
  int calls = 0;
  ack.walk([&](CallOp call) {
    EXPECT_EQ(call.getCallee(), "ackermann");
    ++calls;
  });
  EXPECT_EQ(calls, 3);
}

// let %fact = fn (%x: int64) -> int64 {
//   if (%x == 0) { 1 } else { %x * %fact(%x - 1) }
// };
// %fact(10)
TEST_F(RelayBuilderTest, RecursiveLocalFactorial) {
  Type i64 = rb.scalarType(rb.i64());
  rb.func("main", {}, i64, [&](RelayBuilder &b, ValueRange) {
    Value fact = b.fn(
        {i64}, i64,
        [&](RelayBuilder &b, ValueRange args) {
          Value self = args[0], x = args[1];
          Value zero = b.scalar(0, b.i64()), one = b.scalar(1, b.i64());
          return b.ifThenElse(
              b.equal(x, zero), i64, [&](RelayBuilder &) { return one; },
              [&](RelayBuilder &b) {
                return b.multiply(x, b.apply(self, {b.subtract(x, one)}));
              });
        },
        /*recursive=*/true);
    return b.apply(fact, {b.scalar(10, b.i64())});
  });
  expectValidAndRoundTrips();
  std::string text = print(*module);
  EXPECT_NE(text.find("relay.fn rec("), std::string::npos) << text;
}

// let %g = fn () { let %x = zeros; fn (%y) { %y * %x } };
// let %f = %g();
// let %x = ones;
// %f(%x)      // evaluates to zeros: %f captured the first %x
TEST_F(RelayBuilderTest, ClosureCapturesEnvironment) {
  Type t = rb.tensorType({10, 10}, rb.f32());
  Type closureType = rb.funcType({t}, t);
  rb.func("main", {}, t, [&](RelayBuilder &b, ValueRange) {
    Value g = b.fn({}, closureType, [&](RelayBuilder &b, ValueRange) {
      Value x = b.full(0.0, {10, 10}, b.f32());
      return b.fn({t}, t, [&](RelayBuilder &b, ValueRange args) {
        return b.multiply(args[0], x);
      });
    });
    Value f = b.apply(g, {});
    Value x = b.full(1.0, {10, 10}, b.f32());
    return b.apply(f, {x});
  });
  expectValidAndRoundTrips();
  // The inner closure's body uses the zeros constant from its enclosing
  // closure, not the ones constant of @main.
  FnOp inner;
  module->walk([&](FnOp fn) {
    if (fn->getParentOfType<FnOp>())
      inner = fn;
  });
  ASSERT_TRUE(inner);
  auto mul = cast<MultiplyOp>(inner.getBody().front().front());
  auto captured = mul.getRhs().getDefiningOp<ConstantOp>();
  ASSERT_TRUE(captured);
  EXPECT_TRUE(cast<DenseElementsAttr>(captured.getValue())
                  .getSplatValue<APFloat>()
                  .isZero());
  EXPECT_EQ(captured->getParentOfType<FnOp>(), inner->getParentOfType<FnOp>());
}

// fn (%a: Tensor[(10, 10)], %b: float32, %c: Tensor[(100, 100)]) {
//   let %tup = (%a, %b);
//   ((%tup.0 + %tup.1), %c)
// }
TEST_F(RelayBuilderTest, Tuples) {
  Type a = rb.tensorType({10, 10}, rb.f32());
  Type s = rb.scalarType(rb.f32());
  Type c = rb.tensorType({100, 100}, rb.f32());
  FuncOp fn = rb.func("tuples", {a, s, c}, TupleType::get(&context, {a, c}),
                      [&](RelayBuilder &b, ValueRange args) {
                        Value tup = b.tuple({args[0], args[1]});
                        Value sum =
                            b.add(b.tupleGet(tup, 0), b.tupleGet(tup, 1));
                        return b.tuple({sum, args[2]});
                      });
  expectValidAndRoundTrips();
  EXPECT_EQ(fn.getReturnType(), TupleType::get(&context, {a, c}));
}

// type List[A] { Cons(A, List[A]), Nil }
// def @map[A, B](%f: fn(A) -> B, %l: List[A]) -> List[B] {
//   match (%l) {
//     Cons(%x, %rest) => Cons(%f(%x), @map(%f, %rest)),
//     Nil => Nil,
//   }
// }
// def @main() { @map(fn (%x: int32) { %x + 1 }, Cons(1, Cons(2, Nil))) }
TEST_F(RelayBuilderTest, PolymorphicListMap) {
  TypeVarType a = rb.typeVar("a"), b = rb.typeVar("b");
  DataOp list = rb.data("List", {a},
                        {{"Cons", {a, rb.adtType("List", {a})}}, {"Nil", {}}});
  CtorOp cons = rb.lookupCtor("List", "Cons");
  CtorOp nil = rb.lookupCtor("List", "Nil");
  ASSERT_TRUE(cons && nil);
  EXPECT_EQ(cons.getTag(), 0u);
  EXPECT_EQ(nil.getTag(), 1u);
  EXPECT_EQ(list.getSelfType(), rb.adtType("List", {a}));

  Type listA = rb.adtType("List", {a}), listB = rb.adtType("List", {b});
  Type fType = rb.funcType({a}, b);
  rb.func("map", {fType, listA}, listB,
          [&](RelayBuilder &rb, ValueRange args) {
            Value f = args[0], l = args[1];
            RelayBuilder::MatchCase consCase{
                rb.ctorPattern(cons, {rb.var(), rb.var()}),
                {a, listA},
                [&](RelayBuilder &rb, ValueRange vars) {
                  Value head = rb.apply(f, {vars[0]});
                  Value tail = rb.call("map", listB, {f, vars[1]});
                  return rb.construct(cons, {head, tail}, listB);
                }};
            RelayBuilder::MatchCase nilCase{
                rb.ctorPattern(nil), {}, [&](RelayBuilder &rb, ValueRange) {
                  return rb.construct(nil, {}, listB);
                }};
            return rb.match(l, listB, {consCase, nilCase});
          },
          {a, b});

  Type i32 = rb.scalarType(rb.i32());
  Type listI32 = rb.adtType("List", {i32});
  rb.func("main", {}, listI32, [&](RelayBuilder &rb, ValueRange) {
    Value inc = rb.fn({i32}, i32, [&](RelayBuilder &rb, ValueRange args) {
      return rb.add(args[0], rb.scalar(1, rb.i32()));
    });
    Value l = rb.construct(nil, {}, listI32);
    l = rb.construct(cons, {rb.scalar(2, rb.i32()), l}, listI32);
    l = rb.construct(cons, {rb.scalar(1, rb.i32()), l}, listI32);
    return rb.call(
        "map", listI32, {inc, l},
        builder.getArrayAttr({TypeAttr::get(i32), TypeAttr::get(i32)}));
  });
  expectValidAndRoundTrips();
}

// A reference cell counter: let %r = ref(0); %r := %r! + 1; %r!
TEST_F(RelayBuilderTest, References) {
  Type i32 = rb.scalarType(rb.i32());
  rb.func("counter", {}, i32, [&](RelayBuilder &b, ValueRange) {
    Value r = b.ref(b.scalar(0, b.i32()));
    b.refWrite(r, b.add(b.refRead(r), b.scalar(1, b.i32())));
    return b.refRead(r);
  });
  expectValidAndRoundTrips();
}

// Ill-typed programs built through the API are caught by the verifier with
// a located, precise message.
TEST_F(RelayBuilderTest, VerifierRejectsNonBoolCondition) {
  Type f32 = rb.scalarType(rb.f32());
  rb.func("bad", {f32}, f32, [&](RelayBuilder &b, ValueRange args) {
    return b.ifThenElse(
        args[0], f32, [&](RelayBuilder &) { return args[0]; },
        [&](RelayBuilder &) { return args[0]; });
  });
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(verify(*module)));
  EXPECT_EQ(message, "'relay.if' op condition must be a 0-d bool tensor "
                     "(tensor<i1>), got 'tensor<f32>'");
}

TEST_F(RelayBuilderTest, VerifierRejectsBadBroadcast) {
  Type a = rb.tensorType({3, 4}, rb.f32()), c = rb.tensorType({5}, rb.f32());
  rb.func("bad", {a, c}, a, [&](RelayBuilder &b, ValueRange args) {
    return b.add(args[0], args[1]);
  });
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(verify(*module)));
  EXPECT_EQ(message, "add: cannot broadcast 'tensor<3x4xf32>' with "
                     "'tensor<5xf32>'");
}

} // namespace
