"""The twin writes config.json and metrics.json as nlohmann::json writes them, so that a run folder
saved again by the twin is the app's byte for byte. Doubles are the delicate part: nlohmann's Grisu2
digits differ from Python's repr where two shortest strings are equally close (common for a float
loss held in a double) and where it is not shortest, and its exponent notation starts at 1e15."""
import unittest

from twin_testing import require_torch

require_torch()

from aaren_torch.json_text import compact, dumps, number_text  # noqa: E402

# (value, nlohmann's dump() of it), as nlohmann 3.11 writes them.
NLOHMANN = [
    (0.98554229736328125, "0.9855422973632813"),    # repr: 0.9855422973632812 (an exact tie)
    (1.1375198364257812, "1.1375198364257813"),
    (145.13540649414062, "145.13540649414063"),
    (187025217401200.38, "187025217401200.37"),
    (1220581332901020.8, "1.2205813329010207e+15"),  # repr: 1220581332901020.8
    (-1.459751837929308e+17, "-1.4597518379293082e+17"),  # Grisu2 is not always shortest
    (-1.242277923277529e-235, "-1.2422779232775289e-235"),
    (1e15, "1e+15"),
    (123456789012345.6, "123456789012345.6"),
    (0.1, "0.1"), (1e-05, "1e-05"), (0.0001, "0.0001"), (1.5e-07, "1.5e-07"), (100.0, "100.0"),
    (-3.5, "-3.5"), (0.0, "0.0"), (-0.0, "-0.0"), (5e-324, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"), (0.30000000000000004, "0.30000000000000004"),
]


class JsonText(unittest.TestCase):
    def test_doubles_as_nlohmann_writes_them(self):
        for value, expected in NLOHMANN:
            with self.subTest(value=value):
                self.assertEqual(number_text(value), expected)
                self.assertEqual(float(expected), value)

    def test_documents(self):
        document = {"b": [1, 2.5, True, None], "a": {"x": "Zürich \"q\"\n", "empty": [], "none": {}}, "c": 0.1}
        self.assertEqual(dumps(document), '{\n  "a": {\n    "empty": [],\n    "none": {},\n'
                                          '    "x": "Zürich \\"q\\"\\n"\n  },\n'
                                          '  "b": [\n    1,\n    2.5,\n    true,\n    null\n  ],\n  "c": 0.1\n}')
        self.assertEqual(compact({"k": [1.0, "s"], "a": False}), '{"a":false,"k":[1.0,"s"]}')


if __name__ == "__main__":
    unittest.main(verbosity=2)
