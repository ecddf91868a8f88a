// A two-layer perceptron (the DQN head of the papers' workloads) written
// without the types type inference can find: the weights' shapes follow from
// `units`, every intermediate from its operator's relation. Run
//
//   build/bin/relay-mlir-opt examples/mlp_infer.mlir --relay-infer-types
//
// to see them filled in.
relay.func @main(%x: tensor<1x4xf32>, %w1: !relay.incomplete, %b1: !relay.incomplete,
                 %w2: !relay.incomplete, %b2: !relay.incomplete) -> !relay.incomplete {
  %h = relay.nn.dense %x, %w1 {units = 64 : i64} : (tensor<1x4xf32>, !relay.incomplete) -> !relay.incomplete
  %hb = relay.nn.bias_add %h, %b1 {axis = -1 : i64} : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %a = relay.nn.relu %hb : (!relay.incomplete) -> !relay.incomplete
  %q = relay.nn.dense %a, %w2 {units = 2 : i64} : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %qb = relay.nn.bias_add %q, %b2 {axis = -1 : i64} : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %best = relay.argmax %qb {axis = array<i64: 1>} : (!relay.incomplete) -> !relay.incomplete
  %r = relay.tuple(%qb, %best : !relay.incomplete, !relay.incomplete)
  relay.return %r : tuple<!relay.incomplete, !relay.incomplete>
}
