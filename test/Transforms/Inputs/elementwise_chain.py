"""Prints a function of N elementwise linalg.generic ops in a row, each
adding the input to its predecessor's result (the lowering of N adds
chained by let bindings): fuse-elementwise.mlir's long chain."""
import sys

n = int(sys.argv[1])
print('#id = affine_map<(d0) -> (d0)>')
print('func.func @long_chain(%a: tensor<8xf32>) -> tensor<8xf32> {')
print('  %e = tensor.empty() : tensor<8xf32>')
prev = '%a'
for i in range(n):
    print(f'  %v{i} = linalg.generic {{indexing_maps = [#id, #id, #id], '
          f'iterator_types = ["parallel"]}} ins({prev}, %a : tensor<8xf32>, '
          f'tensor<8xf32>) outs(%e : tensor<8xf32>) {{')
    print('  ^bb0(%x: f32, %y: f32, %o: f32):')
    print('    %r = arith.addf %x, %y : f32')
    print('    linalg.yield %r : f32')
    print('  } -> tensor<8xf32>')
    prev = f'%v{i}'
print(f'  return {prev} : tensor<8xf32>')
print('}')
