#!/usr/bin/python3
"""Builds the SGD step of a Relay loss function as one Relay function.

  sgd_step.py BIN_DIR LOSS.rly OUT.mlir [--func loss] [--data x,y]
              [--keep f,g] [--mode first-order|higher-order]

LOSS.rly defines @FUNC (a scalar loss of its weights and its data
parameters, the ones --data names). The loss is differentiated
(`relay-mlir-opt --relay-gradient`), the gradient module exported as Relay
text, and a function @step added to it:

  def @step(<@FUNC's parameters>, %lr: float32) {
    let %r = @FUNC_grad(...);
    (%r.0, subtract(%w, multiply(%lr, %r.1.i)) for each weight %w)
  }

then imported again with the calls inlined and what @step does not use
removed (`--relay-dead-code-elimination`, so the data's gradients go).
OUT.mlir holds @step and the functions --keep names (a @predict, say):
`relay-run OUT.mlir --entry step` runs it, and `--emit-object` compiles it
ahead of time. With --mode higher-order the gradient is seed 000's and the
partial evaluator makes it first order.
"""
import argparse
import os
import re
import subprocess
import sys


def split_top_level(text):
    """Splits `text` at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        elif ch == ',' and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def parameters(module, func):
    """The (name, type) of each parameter of @func in Relay text."""
    match = re.search(r'def @%s\(' % re.escape(func), module)
    if not match:
        raise SystemExit('sgd_step: the module has no function @%s' % func)
    depth, i = 1, match.end()
    while depth:
        depth += {'(': 1, ')': -1}.get(module[i], 0)
        i += 1
    params = []
    for p in split_top_level(module[match.end():i - 1]):
        name, _, ty = p.partition(':')
        params.append((name.strip().lstrip('%'), ty.strip()))
    return params


def step_text(func, params, data):
    weights = [name for name, _ in params if name not in data]
    signature = ', '.join('%%%s: %s' % (n, t) for n, t in params)
    args = ', '.join('%' + n for n, _ in params)
    index = {name: i for i, (name, _) in enumerate(params)}
    updates = ''.join(
        ',\n   subtract(%%%s, multiply(%%lr, %%g.%d))' % (w, index[w])
        for w in weights)
    return ('def @step(%s, %%lr: float32) {\n'
            '  let %%r = @%s_grad(%s);\n'
            '  let %%g = %%r.1;\n'
            '  (%%r.0%s)\n'
            '}\n' % (signature, func, args, updates))


def run(cmd, stdin=None):
    result = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        raise SystemExit('sgd_step: %s failed' % os.path.basename(cmd[0]))
    return result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('bin')
    parser.add_argument('loss')
    parser.add_argument('out')
    parser.add_argument('--func', default='loss')
    parser.add_argument('--data', default='x,y',
                        help='the parameters that are data, not weights')
    parser.add_argument('--keep', default='',
                        help='other functions OUT.mlir keeps')
    parser.add_argument('--mode', default='first-order',
                        choices=['first-order', 'higher-order'])
    args = parser.parse_args()
    translate = os.path.join(args.bin, 'relay-mlir-translate')
    opt = os.path.join(args.bin, 'relay-mlir-opt')
    data = set(filter(None, args.data.split(',')))

    imported = run([translate, '--import-relay', args.loss])
    passes = [opt, '--relay-infer-types', '--inline',
              '--relay-gradient=func=%s mode=%s' % (args.func, args.mode)]
    if args.mode == 'higher-order':
        passes += ['--relay-partial-eval']
    gradient = run(passes, imported)
    text = run([translate, '--export-relay'], gradient)
    # The data are named as in LOSS.rly; the export numbers its variables.
    names = [name for name, _ in parameters(open(args.loss).read(), args.func)]
    missing = data - set(names)
    if missing:
        raise SystemExit('sgd_step: @%s has no parameter %s' %
                         (args.func, ', '.join(sorted(missing))))
    params = parameters(text, args.func)
    data = {params[names.index(name)][0] for name in data}
    # @step goes before the metadata section (the module's constants).
    at = text.find('#[metadata]')
    at = len(text) if at < 0 else at
    text = text[:at] + step_text(args.func, params, data) + '\n' + text[at:]
    entries = ['step'] + list(filter(None, args.keep.split(',')))
    imported = run([translate, '--import-relay', '-'], text)
    run([opt, '--relay-infer-types', '--inline',
         '--relay-dead-code-elimination=entry-functions=' + ','.join(entries),
         '-o', args.out], imported)


if __name__ == '__main__':
    main()
