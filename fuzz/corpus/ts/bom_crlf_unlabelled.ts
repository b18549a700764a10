@ProblemName crlf  
@CLASSLABEL false

@Data
1,2,3 
4,5,6	
