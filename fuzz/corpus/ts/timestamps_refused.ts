@problemName stamps
@timeStamps true
@classLabel true a
@data
(0,1),(1,2):a
