"""Aaren's many-to-many attention in the twin (python/aaren_torch/prefix_attention.py): every prefix's
softmax average, equal to the masked softmax it replaces, stable where the scores span thousands,
and with nothing of T x T size kept for the backward (docs/DESIGN.md section 3)."""
import unittest

from twin_testing import require_torch

require_torch()

import torch  # noqa: E402

from aaren_torch import prefix_attention  # noqa: E402


def masked_softmax_reference(scores, values):
    t = scores.shape[-1]
    causal = torch.ones(t, t, dtype=torch.bool).tril()
    weights = torch.softmax(scores.unsqueeze(-2).expand(*scores.shape[:-1], t, t).masked_fill(~causal, float("-inf")),
                            dim=-1)
    return weights @ values


class PrefixAttention(unittest.TestCase):
    def test_matches_the_masked_softmax_for_every_chunk_size(self):
        generator = torch.Generator().manual_seed(1)
        scores = torch.randn(2, 3, 37, generator=generator, dtype=torch.float64) * 4
        values = torch.randn(2, 3, 37, 5, generator=generator, dtype=torch.float64)
        expected = masked_softmax_reference(scores, values)
        for chunk in (1, 2, 7, 36, 37, 64):
            with self.subTest(chunk=chunk):
                self.assertLess(float((prefix_attention(scores, values, chunk) - expected).abs().max()), 1e-13)

    def test_scores_far_apart_in_float32(self):
        # The first prefixes' scores lie 3000 below the later ones: a shift by the global maximum
        # would underflow them to 0/0; the running maximum keeps every prefix exact.
        scores = torch.tensor([[-3000.0, -2999.0, 10.0, 12.0, -5000.0]])
        values = torch.tensor([[[1.0], [2.0], [3.0], [4.0], [5.0]]])
        out = prefix_attention(scores, values, chunk=2)
        expected = masked_softmax_reference(scores.double(), values.double()).float()
        self.assertTrue(bool(torch.isfinite(out).all()))
        self.assertLess(float((out - expected).abs().max()), 1e-5)
        self.assertAlmostEqual(float(out[0, 0, 0]), 1.0)

    def test_gradients_match_finite_differences(self):
        generator = torch.Generator().manual_seed(2)
        scores = torch.randn(1, 2, 11, generator=generator, dtype=torch.float64, requires_grad=True)
        values = torch.randn(1, 2, 11, 3, generator=generator, dtype=torch.float64, requires_grad=True)
        self.assertTrue(torch.autograd.gradcheck(lambda s, v: prefix_attention(s, v, chunk=4), (scores, values)))

    def test_memory_for_the_backward_is_linear_in_length(self):
        t, chunk = 1024, 32
        scores = torch.randn(1, 1, t, requires_grad=True)
        values = torch.randn(1, 1, t, 4, requires_grad=True)
        largest = []

        def keep(tensor):
            largest.append(tensor.numel())
            return tensor

        with torch.autograd.graph.saved_tensors_hooks(keep, lambda tensor: tensor):
            prefix_attention(scores, values, chunk).sum().backward()
        self.assertLessEqual(max(largest), t * chunk)  # a chunk's (chunk x chunk) weights, never (T x T)
        self.assertLess(sum(largest), 16 * t * chunk)


if __name__ == "__main__":
    unittest.main(verbosity=2)
