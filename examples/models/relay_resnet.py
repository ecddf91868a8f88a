#!/usr/bin/python3
"""Writes ResNet-18 (torchvision's layout: 7x7 stem, max pool, four stages of
two basic blocks, global average pool, dense) as a Relay text program whose
weights are parameters, as TVM's relay.testing.resnet builds it, so that its
gradient can be taken with respect to every weight.

  relay_resnet.py OUT.rly [--batch N] [--image S] [--classes K]
                  [--loss cross-entropy|none]

The parameters come in the order of torchvision's state_dict (batch norm
running statistics included, num_batches_tracked left out), named after it
with '.' as '_', after the input %data; with --loss cross-entropy (the
default) a last parameter %target (N x K, e.g. one-hot) makes the result
-sum(target * log_softmax(logits)), otherwise the result is the logits.
`parameter_names()` gives the same order to Python callers.
"""
import argparse

STAGES = [(64, 1), (128, 2), (256, 2), (512, 2)]


def _blocks():
    """(prefix, in_channels, out_channels, stride) of each basic block."""
    channels = 64
    for i, (out, stride) in enumerate(STAGES):
        for j in range(2):
            yield ('layer%d.%d' % (i + 1, j), channels, out,
                   stride if j == 0 else 1)
            channels = out


def parameter_shapes(classes=1000):
    """The (state_dict name, shape) of each weight, in state_dict order."""
    params = []

    def conv(name, cin, cout, k):
        params.append((name + '.weight', (cout, cin, k, k)))

    def bn(name, c):
        for field in ('weight', 'bias', 'running_mean', 'running_var'):
            params.append(('%s.%s' % (name, field), (c,)))

    conv('conv1', 3, 64, 7)
    bn('bn1', 64)
    for prefix, cin, cout, stride in _blocks():
        conv(prefix + '.conv1', cin, cout, 3)
        bn(prefix + '.bn1', cout)
        conv(prefix + '.conv2', cout, cout, 3)
        bn(prefix + '.bn2', cout)
        if stride != 1 or cin != cout:
            conv(prefix + '.downsample.0', cin, cout, 1)
            bn(prefix + '.downsample.1', cout)
    params.append(('fc.weight', (classes, 512)))
    params.append(('fc.bias', (classes,)))
    return params


def parameter_names(classes=1000):
    return [name for name, _ in parameter_shapes(classes)]


def _var(name):
    return '%' + name.replace('.', '_')


def program(batch=1, image=224, classes=1000, loss='cross-entropy'):
    shapes = parameter_shapes(classes)
    lines = []
    counter = [0]

    def bind(expr):
        name = '%%%d' % counter[0]
        counter[0] += 1
        lines.append('  %s = %s;' % (name, expr))
        return name

    def conv(x, name, stride, pad):
        return bind('nn.conv2d(%s, %s, strides=[%d, %d], padding=[%d, %d, %d, '
                    '%d])' % (x, _var(name + '.weight'), stride, stride, pad,
                              pad, pad, pad))

    def bn(x, name):
        fields = [_var('%s.%s' % (name, f)) for f in
                  ('weight', 'bias', 'running_mean', 'running_var')]
        return bind('nn.batch_norm(%s, %s).0' % (x, ', '.join(fields)))

    x = conv('%data', 'conv1', 2, 3)
    x = bind('nn.relu(%s)' % bn(x, 'bn1'))
    x = bind('nn.max_pool2d(%s, pool_size=[3, 3], strides=[2, 2], '
             'padding=[1, 1, 1, 1])' % x)
    for prefix, cin, cout, stride in _blocks():
        y = conv(x, prefix + '.conv1', stride, 1)
        y = bind('nn.relu(%s)' % bn(y, prefix + '.bn1'))
        y = bn(conv(y, prefix + '.conv2', 1, 1), prefix + '.bn2')
        if stride != 1 or cin != cout:
            x = bn(conv(x, prefix + '.downsample.0', stride, 0),
                   prefix + '.downsample.1')
        x = bind('nn.relu(add(%s, %s))' % (y, x))
    x = bind('nn.batch_flatten(nn.global_avg_pool2d(%s))' % x)
    logits = 'nn.bias_add(nn.dense(%s, %%fc_weight), %%fc_bias)' % x

    params = ['%%data: Tensor[(%d, 3, %d, %d), float32]' % (batch, image, image)]
    params += ['%s: Tensor[(%s), float32]' % (_var(name),
                                                ', '.join(map(str, shape)) +
                                                (',' if len(shape) == 1 else ''))
               for name, shape in shapes]
    if loss == 'cross-entropy':
        params.append('%%target: Tensor[(%d, %d), float32]' % (batch, classes))
        body = lines + ['  negative(sum(multiply(%%target, nn.log_softmax(%s))))'
                        % logits]
        result = 'float32'
    else:
        body = lines + ['  ' + logits]
        result = 'Tensor[(%d, %d), float32]' % (batch, classes)
    return ('#[version = "0.0.5"]\n'
            '// ResNet-18 (torchvision layout), its weights parameters.\n'
            'def @main(%s) -> %s {\n%s\n}\n' % (', '.join(params), result,
                                                '\n'.join(body)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('out')
    parser.add_argument('--batch', type=int, default=1)
    parser.add_argument('--image', type=int, default=224)
    parser.add_argument('--classes', type=int, default=1000)
    parser.add_argument('--loss', choices=['cross-entropy', 'none'],
                        default='cross-entropy')
    args = parser.parse_args()
    with open(args.out, 'w') as f:
        f.write(program(args.batch, args.image, args.classes, args.loss))


if __name__ == '__main__':
    main()
