// References (seeds/000, appendix): a counter cell.
//
// let %r = ref(0);
// ref_write(%r, ref_read(%r) + 1);
// ref_read(%r)      // 1
relay.func @main() -> tensor<i32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %one = relay.constant dense<1> : tensor<i32>
  %r = relay.ref %zero : tensor<i32>
  %v = relay.ref_read %r : !relay.ref<tensor<i32>>
  %v1 = relay.add %v, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %u = relay.ref_write %r, %v1 : !relay.ref<tensor<i32>>, tensor<i32>
  %result = relay.ref_read %r : !relay.ref<tensor<i32>>
  relay.return %result : tensor<i32>
}
