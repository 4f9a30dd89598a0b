"""tasks/models/device.py: bfloat16 on a CPU without native bf16 warns once."""



def test_bfloat16_on_a_cpu_without_native_bf16_warns_once_and_float32_never():
    import warnings

    import torch

    from tasks.models.device import warn_if_slow_dtype

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_if_slow_dtype("cpu", "float32")
        warn_if_slow_dtype("cuda", "bfloat16")
        assert caught == []
        warn_if_slow_dtype("cpu", "bfloat16")
    native = torch.ops.mkldnn._is_mkldnn_bf16_supported()
    assert [str(w.message).split(" (")[0] for w in caught] == ([] if native else
                                                                ["dtype bfloat16 on a CPU without native bf16"])
