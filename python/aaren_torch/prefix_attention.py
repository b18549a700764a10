"""Aaren's many-to-many attention: every prefix's softmax average, in memory linear in T.

docs/DESIGN.md section 3: a segment is summarized by (m, u, w) = (max score, sum exp(s - m),
sum exp(s - m) v), and segments combine associatively. The sequence is cut into chunks of `chunk`
tokens; within a chunk every prefix is a (chunk x chunk) masked weighting against the running
maximum, and the state of the chunks before enters by the combine. Memory is O(T * chunk) per head,
never T x T, and no exponent is ever positive, so it neither overflows nor loses a prefix whose
scores are far below a later maximum.
"""
import torch


def prefix_attention(scores, values, chunk=64):
    """scores (..., T), values (..., T, dv) -> (..., T, dv): output k is
    sum_{i<=k} exp(s_i) v_i / sum_{i<=k} exp(s_i)."""
    t = scores.shape[-1]
    lead = scores.shape[:-1]
    m = torch.full(lead, float("-inf"), dtype=scores.dtype, device=scores.device)
    u = torch.zeros(lead, dtype=scores.dtype, device=scores.device)
    w = torch.zeros(lead + values.shape[-1:], dtype=values.dtype, device=values.device)
    outputs = []
    for start in range(0, t, chunk):
        s = scores[..., start:start + chunk]
        v = values[..., start:start + chunk, :]
        c = s.shape[-1]
        # The softmax is invariant to the shift, so the running maximum is a constant for autograd.
        with torch.no_grad():
            shift = torch.maximum(torch.cummax(s, dim=-1).values, m.unsqueeze(-1))  # (..., c)
            carry = torch.exp(m.unsqueeze(-1) - shift)  # weight of the chunks before; 0 while m is -inf
        causal = torch.ones(c, c, dtype=torch.bool, device=s.device).tril()
        # weights[..., k, i] = exp(s_i - shift_k) for i <= k
        weights = torch.exp((s.unsqueeze(-2) - shift.unsqueeze(-1)).masked_fill(~causal, float("-inf")))
        numerator = weights @ v + carry.unsqueeze(-1) * w.unsqueeze(-2)
        denominator = weights.sum(dim=-1) + carry * u.unsqueeze(-1)
        outputs.append(numerator / denominator.unsqueeze(-1))
        m, u, w = shift[..., -1], denominator[..., -1], numerator[..., -1, :]
    return torch.cat(outputs, dim=-2)
