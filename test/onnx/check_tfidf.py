#!/usr/bin/python3
"""ONNX TfIdfVectorizer against scikit-learn, as skl2onnx converts a
fitted CountVectorizer or TfidfVectorizer: documents of token ids, the
vocabulary's n-grams as the pool, sklearn's column of each as its output
index, its idf as the weights (TFIDF: counts times idf, as TfidfVectorizer
with norm=None; IDF: presence times idf, as binary=True); n-gram ranges
(1, 1), (1, 2), (2, 3); one document and a batch. Run by relay-run through
the interpreter and compiled. (Skips, which sklearn does not count, are
ONNX's node tests' part.)

  /usr/bin/python3 check_tfidf.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer


def fitted(kind, ngram_range, docs):
    """A fitted sklearn vectorizer of `kind` ('TF', 'TFIDF', 'IDF') over
    documents of token ids written as words."""
    text = [' '.join(str(t) for t in d) for d in docs]
    common = dict(ngram_range=ngram_range, token_pattern=r'\S+',
                  lowercase=False)
    if kind == 'TF':
        v = CountVectorizer(**common)
    else:
        v = TfidfVectorizer(norm=None, binary=(kind == 'IDF'), **common)
    return v, v.fit_transform(text).toarray().astype(np.float32)


def tfidf_model(kind, ngram_range, vectorizer, length, batch):
    """The ONNX model of `vectorizer`: its vocabulary as the pool, grouped
    by length."""
    lo, hi = ngram_range
    pool, counts, indexes, weights = [], [], [], []
    grams = sorted(vectorizer.vocabulary_.items(),
                   key=lambda item: (len(item[0].split()), item[1]))
    for n in range(1, hi + 1):
        counts.append(len(pool))
        for gram, column in grams:
            tokens = [int(t) for t in gram.split()]
            if len(tokens) != n:
                continue
            pool += tokens
            indexes.append(column)
            if kind != 'TF':
                weights.append(float(vectorizer.idf_[column]))
    attrs = dict(mode=kind, min_gram_length=lo, max_gram_length=hi,
                 max_skip_count=0, pool_int64s=pool, ngram_counts=counts,
                 ngram_indexes=indexes)
    if weights:
        attrs['weights'] = weights
    node = helper.make_node('TfIdfVectorizer', ['x'], ['y'], **attrs)
    shape = [batch, length] if batch else [length]
    out = [batch, len(indexes)] if batch else [len(indexes)]
    graph = helper.make_graph(
        [node], 'tfidf', [helper.make_tensor_value_info('x', TensorProto.INT64,
                                                        shape)],
        [helper.make_tensor_value_info('y', TensorProto.FLOAT, out)])
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid('', 13)])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    rng = np.random.default_rng(0)
    length, batch = 12, 4
    docs = rng.integers(0, 9, size=(batch, length))
    failures = 0
    cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ('TF', 'TFIDF', 'IDF'):
            for ngram_range in ((1, 1), (1, 2), (2, 3)):
                vectorizer, want = fitted(kind, ngram_range, docs)
                for batched in (True, False):
                    x = docs if batched else docs[0]
                    expected = want if batched else want[0]
                    model = os.path.join(tmp, 'm.onnx')
                    onnx.save(tfidf_model(kind, ngram_range, vectorizer,
                                          length, batch if batched else 0),
                              model)
                    np.save(os.path.join(tmp, 'x.npy'), x)
                    for mode in (['--interp'], []):
                        cases += 1
                        out = os.path.join(tmp, 'y.npy')
                        proc = subprocess.run(
                            [relay_run, model, '--input',
                             os.path.join(tmp, 'x.npy'), '--output', out]
                            + mode, capture_output=True, text=True)
                        what = '%s %s %s %s' % (
                            kind, ngram_range, 'batch' if batched else 'one',
                            'interpreted' if mode else 'compiled')
                        if proc.returncode != 0:
                            print('FAIL %s: %s' % (what, proc.stderr.strip()))
                            failures += 1
                            continue
                        if not mode and 'reference interpreter' in proc.stderr:
                            print('FAIL %s: not compiled' % what)
                            failures += 1
                            continue
                        got = np.load(out)
                        if not np.allclose(got, expected, rtol=1e-5,
                                           atol=1e-5):
                            print('FAIL %s: max difference %g' % (
                                what, np.max(np.abs(got - expected))))
                            failures += 1
    print('TfIdfVectorizer vs scikit-learn: %d of %d cases agree'
          % (cases - failures, cases))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
